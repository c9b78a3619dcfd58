/**
 * The job's shared lock: a Nomad variable, `nomad-restart/locks/<job>` in the job's namespace,
 * locked through Nomad's lock API (Nomad ≥ 1.7). It lives where the job lives, so every
 * `nomad-restart` process and every AWS execution restarting that job takes the same lock. The
 * holder writes who it is into the variable's items (Nomad's 409 says nothing about the holder),
 * and anyone who may read the variable reads them back. Nomad frees a lock that is not renewed
 * within its TTL (then its LockDelay); renew, release and a takeover use the lock's ID, which
 * Nomad shows to every reader of the variable. A released lock's variable is deleted (a namespace
 * holding a variable cannot be deleted), when the token has the `destroy` capability.
 */
import { createHash } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import type { NomadClient } from '../nomad/client';
import { parseGoBool } from '../nomad/config';
import { UnexpectedResponseError } from '../nomad/errors';
import { type Variable, VariableLockConflictError } from '../nomad/variables';
import { SharedLockHeldError, type SharedLockHolder, SharedLockPermissionError } from './errors';
import { type LockKey, lockKeyString } from './job-lock';

/**
 * Where every job's lock variable lives (a token needs `read` and `write` on `<prefix>*`, and
 * `destroy` to delete the variable of a released lock).
 */
export const SHARED_LOCK_PREFIX = 'nomad-restart/locks/';

/** Nomad's limit on a variable path. */
const MAX_PATH = 128;

/**
 * The lock variable's path for `jobId`. Variable paths allow `[A-Za-z0-9-_~/]` only, so every
 * other character (and `~`, `/`) is written `~XX` (its UTF-8 bytes in hex); a path past Nomad's
 * 128 characters keeps its start and ends in a hash of the whole ID.
 */
export function sharedLockPath(jobId: string): string {
  const encoded = [...Buffer.from(jobId, 'utf8')]
    .map((byte) => {
      const c = String.fromCharCode(byte);
      return /[A-Za-z0-9_-]/.test(c) ? c : `~${byte.toString(16).padStart(2, '0')}`;
    })
    .join('');
  const room = MAX_PATH - SHARED_LOCK_PREFIX.length;
  if (encoded.length <= room) return `${SHARED_LOCK_PREFIX}${encoded}`;
  const hash = createHash('sha256').update(jobId).digest('hex').slice(0, 40);
  return `${SHARED_LOCK_PREFIX}${encoded.slice(0, room - hash.length - 1)}~${hash}`;
}

/** Structured log lines of the lock: names and statuses only, never a token. */
export interface SharedLockLog {
  debug(message: string, fields: Record<string, unknown>): void;
  warn(message: string, fields: Record<string, unknown>): void;
}

/** This run's side of the lock: who it is, and the lease it asks Nomad for. */
export interface SharedLockOptions {
  /** Written into the variable for the next run to read (`runId` and `since` are added). */
  readonly identity: Omit<SharedLockHolder, 'runId' | 'since'>;
  /** Go duration, 10s to 24h (Nomad's bounds). */
  readonly ttl: string;
  /** Go duration a lock that timed out stays held. @default - Nomad's 15s */
  readonly lockDelay?: string;
  /** Unix ms. @default Date.now */
  readonly now?: () => number;
  /** Where a lock variable left behind is reported. @default - not reported */
  readonly log?: SharedLockLog;
}

/** The switch for the shared lock: `true` (the default), `required`, or `false`. */
export const VARIABLES_LOCK_ENV = 'NOMAD_RESTART_VARIABLES_LOCK';

/**
 * How runs treat the job's shared lock in Nomad, from `NOMAD_RESTART_VARIABLES_LOCK`: `on` takes
 * it when the token may (a token without the variables capability gets a warning and the run goes
 * on with its engine's lock alone: `nomad job restart` needs no such capability); `required` fails
 * the run instead; `off` (Go's false: `false`, `0`, ...) never takes it.
 */
export function sharedLockMode(env: NodeJS.ProcessEnv = process.env): 'on' | 'required' | 'off' {
  const value = env[VARIABLES_LOCK_ENV] ?? 'true';
  if (value === 'required') return 'required';
  return parseGoBool(value) === false ? 'off' : 'on';
}

/** How long a local process's lock lives without a renewal (its keeper renews it well before). */
export const LOCAL_SHARED_LOCK_TTL_MS = 60_000;

/**
 * An execution's lock: Nomad's longest TTL, renewed before every batch. An execution that dies
 * has it released by the status-change path; no process lives on between its steps to renew it.
 */
export const AWS_SHARED_LOCK_TTL = '24h';

/** Who a `nomad-restart` process is: the user and host it runs as, and its pid. */
export function localLockIdentity(): SharedLockOptions['identity'] {
  let who = 'unknown';
  try {
    who = userInfo().username;
  } catch {
    // A user without a passwd entry (a container): the host and pid still say where.
  }
  return { engine: 'local', who, host: hostname(), pid: String(process.pid) };
}

/** Who an execution is: Step Functions, in its region. */
export function awsLockIdentity(env: NodeJS.ProcessEnv = process.env): SharedLockOptions['identity'] {
  return { engine: 'aws', who: 'AWS Step Functions', host: `aws:${env['AWS_REGION'] ?? 'unknown'}` };
}

/** The written holder of a lock variable, if its items carry one. */
function holderOf(variable: Variable | undefined): SharedLockHolder | undefined {
  const items = variable?.Items;
  if (items?.['runId'] === undefined) return undefined;
  return {
    runId: items['runId'],
    engine: items['engine'] ?? '',
    who: items['who'] ?? '',
    host: items['host'] ?? '',
    ...(items['pid'] === undefined ? {} : { pid: items['pid'] }),
    since: items['since'] ?? '',
  };
}

/** The job's lock as a Nomad variable (see the file comment). */
export class NomadVariablesLock {
  public constructor(
    private readonly nomad: NomadClient,
    private readonly options: SharedLockOptions,
  ) {}

  /**
   * Takes the lock for `owner`, or renews it when `owner` holds it already.
   * @throws SharedLockHeldError naming the holder; SharedLockPermissionError for a token that may not.
   */
  public async acquire(key: LockKey, owner: string): Promise<void> {
    const path = sharedLockPath(key.jobId);
    const held = await this.guard(key, () => this.tryAcquire(key, owner));
    if (held === undefined) return;
    const current = await this.read(key);
    const lockId = current?.Lock?.ID;
    if (lockId !== undefined && holderOf(current)?.runId === owner) {
      await this.guard(key, () =>
        this.nomad.variables().renewLock(path, lockId, { namespace: key.namespace }),
      );
      return;
    }
    throw this.heldError(key, current, held);
  }

  /**
   * Takes the lock from `previousOwner`, a run found no longer running: its lock is released
   * with the ID anyone may read, then taken. @throws SharedLockHeldError when another run holds it.
   */
  public async takeOver(key: LockKey, owner: string, previousOwner: string): Promise<void> {
    const current = await this.read(key);
    const holder = holderOf(current)?.runId;
    const lockId = current?.Lock?.ID;
    if (lockId !== undefined && holder === previousOwner) await this.releaseId(key, lockId);
    await this.acquire(key, owner);
  }

  /** Releases the lock if `owner` holds it; `false` when it did not. */
  public async release(key: LockKey, owner: string): Promise<boolean> {
    const current = await this.read(key);
    const lockId = current?.Lock?.ID;
    if (lockId === undefined || holderOf(current)?.runId !== owner) return false;
    return this.releaseId(key, lockId);
  }

  /** Releases every job lock `owner` holds, in any namespace the token may read; returns how many. */
  public async releaseByOwner(owner: string): Promise<number> {
    const variables = await this.guard({ namespace: '*', jobId: '' }, () =>
      this.nomad.variables().list(SHARED_LOCK_PREFIX, { namespace: '*' }),
    );
    let released = 0;
    for (const variable of variables) {
      const namespace = variable.Namespace ?? 'default';
      const current = await this.nomad.variables().read(variable.Path, { namespace });
      const lockId = current?.Lock?.ID;
      if (lockId === undefined || holderOf(current)?.runId !== owner) continue;
      if (await this.releaseAt(namespace, variable.Path, lockId)) released += 1;
    }
    return released;
  }

  private async tryAcquire(key: LockKey, owner: string): Promise<VariableLockConflictError | undefined> {
    const now = this.options.now ?? Date.now;
    const items: Record<string, string> = {
      ...Object.fromEntries(Object.entries(this.options.identity).filter(([, v]) => v !== undefined)),
      runId: owner,
      since: new Date(now()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    };
    try {
      await this.nomad.variables().acquireLock(
        sharedLockPath(key.jobId),
        items,
        {
          TTL: this.options.ttl,
          ...(this.options.lockDelay === undefined ? {} : { LockDelay: this.options.lockDelay }),
        },
        { namespace: key.namespace },
      );
      return undefined;
    } catch (err) {
      if (err instanceof VariableLockConflictError) return err;
      throw err;
    }
  }

  private read(key: LockKey): Promise<Variable | undefined> {
    return this.guard(key, () =>
      this.nomad.variables().read(sharedLockPath(key.jobId), { namespace: key.namespace }),
    );
  }

  private releaseId(key: LockKey, lockId: string): Promise<boolean> {
    return this.releaseAt(key.namespace, sharedLockPath(key.jobId), lockId);
  }

  private async releaseAt(namespace: string, path: string, lockId: string): Promise<boolean> {
    let released: Variable;
    try {
      released = await this.guard({ namespace, jobId: path }, () =>
        this.nomad.variables().releaseLock(path, lockId, { namespace }),
      );
    } catch (err) {
      // Someone released or took it meanwhile (its TTL ran out): not ours to release any more.
      if (err instanceof VariableLockConflictError) return false;
      throw err;
    }
    await this.deleteReleased(namespace, path, released.ModifyIndex);
    return true;
  }

  /**
   * Deletes the variable of a lock just released, so none is left per restarted job, checked
   * against the index the release wrote: a run that took the lock meanwhile changed that index,
   * and Nomad's 409 leaves its variable alone. Best effort: the lock is released either way, and a
   * variable left (a token without `destroy`) is harmless, taken again by the job's next run.
   */
  private async deleteReleased(
    namespace: string,
    path: string,
    releasedAt: number | undefined,
  ): Promise<void> {
    if (releasedAt === undefined) return;
    try {
      await this.nomad.variables().checkedDelete(path, releasedAt, { namespace });
    } catch (err) {
      const fields = { namespace, path, error: err instanceof Error ? err.message : String(err) };
      if (err instanceof UnexpectedResponseError && err.statusCode === 403)
        this.options.log?.debug('Lock variable left: the token lacks the "destroy" capability', fields);
      else this.options.log?.warn('Lock variable left: Nomad did not delete it', fields);
    }
  }

  private heldError(key: LockKey, current: Variable | undefined, cause: unknown): SharedLockHeldError {
    const holder = holderOf(current);
    const self = this.options.identity;
    const askable =
      holder !== undefined &&
      holder.engine === self.engine &&
      (self.engine === 'aws' || (holder.host === self.host && holder.pid === self.pid));
    return new SharedLockHeldError(lockKeyString(key), holder, askable, { cause });
  }

  /** Runs a Nomad call; a 403 becomes the message that says what the token needs, and the ways out. */
  private async guard<T>(key: LockKey, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof UnexpectedResponseError) || err.statusCode !== 403) throw err;
      const namespace = key.namespace === '*' ? '<namespace>' : key.namespace;
      throw new SharedLockPermissionError(
        `Nomad denied the job's shared lock: the token needs the variables capabilities "read" and "write" ` +
          `on path "${SHARED_LOCK_PREFIX}*" in namespace "${namespace}" ` +
          `(namespace "${namespace}" { variables { path "${SHARED_LOCK_PREFIX}*" { capabilities = ["read", "write"] } } }), ` +
          `or set ${VARIABLES_LOCK_ENV}=false to restart without it`,
        { cause: err },
      );
    }
  }
}
