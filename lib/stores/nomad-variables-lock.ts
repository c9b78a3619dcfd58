/**
 * The job's shared lock: a Nomad variable, `nomad-restart/locks/<job>` in the job's namespace,
 * locked through Nomad's lock API (Nomad ≥ 1.7). It lives where the job lives, so every
 * `nomad-restart` process and every AWS execution restarting that job takes the same lock. The
 * holder writes who it is into the variable's items (Nomad's 409 says nothing about the holder),
 * and anyone who may read the variable reads them back. Nomad frees a lock that is not renewed
 * within its TTL (then its LockDelay).
 *
 * Renew and release take the lock's ID, which Nomad gives its holder once, in the answer to the
 * lock-acquire: with ACLs on, a read shows the lock to management tokens only
 * (`nomad/variables_endpoint.go`, `Read`), so the ID is never read back; the engine's own lock keeps
 * it (`HeldLock.sharedLockId`). A released lock's variable stays, as Nomad's release leaves it
 * (`VarLockRelease` in `nomad/state/state_store_variables.go` keeps its items): a delete would cost
 * every run one more request, and the job's next run acquires the unlocked variable as it would a
 * new one. Its items go on naming the last holder; lib/stores/lock-liveness.ts tells a holder from
 * a run that ended. A namespace holding a variable cannot be deleted: purge it first
 * (`nomad var purge -namespace <ns> nomad-restart/locks/<job>`).
 */
import type { NomadClient } from '../nomad/client';
import { UnexpectedResponseError } from '../nomad/errors';
import { type Variable, VariableLockConflictError } from '../nomad/variables';
import {
  describeHolder,
  JobLockLostError,
  SharedLockHeldError,
  type SharedLockHolder,
  SharedLockPermissionError,
  SharedLockUnsupportedError,
} from './errors';
import { type LockKey, lockKeyString } from './job-lock';
import {
  SHARED_LOCK_PREFIX,
  type SharedLockOptions,
  sharedLockPath,
  VARIABLES_LOCK_ENV,
} from './shared-lock-settings';

/** The written holder of a lock variable (its items), if it names one; `nomad-restart pause <job>` reads it too. */
export function holderOf(variable: Variable | undefined): SharedLockHolder | undefined {
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

/**
 * Nomad's answers to a release of a lock `lockId` does not hold: 409 (another ID holds it), and
 * 500 `variable doesn't hold a lock` / `variable doesn't exist` (`VarLockRelease` in
 * `nomad/state/state_store_variables.go`).
 */
function isNotHeld(err: unknown): boolean {
  if (!(err instanceof UnexpectedResponseError)) return false;
  if (err.statusCode === 409 || err.statusCode === 404) return true;
  return err.statusCode === 500 && /variable doesn't (hold a lock|exist)/.test(err.body);
}

/** The variables capability each lock operation needs. */
type Capability = 'read' | 'write';

/** The job's lock as a Nomad variable (see the file comment). */
export class NomadVariablesLock {
  public constructor(
    private readonly nomad: NomadClient,
    private readonly options: SharedLockOptions,
  ) {}

  /**
   * Takes the lock for `owner` under `lockId`, the ID renew and release need. The caller chooses
   * it (a fresh random one, kept where no one else reads it: no later read shows it) and keeps it
   * before calling: Nomad lets the holder of an ID acquire again (`isLocked` in
   * `nomad/state/state_store_variables.go`), so a take retried after its answer was lost succeeds.
   * @throws SharedLockHeldError naming the holder; SharedLockPermissionError for a token that may
   *   not; SharedLockUnsupportedError for a Nomad without the lock API.
   */
  public async take(key: LockKey, owner: string, lockId: string): Promise<void> {
    const path = sharedLockPath(key.jobId);
    let taken: Variable;
    try {
      taken = await this.guard(key, 'write', () => this.acquireLock(key, owner, lockId));
    } catch (err) {
      if (err instanceof VariableLockConflictError) throw this.heldError(key, await this.read(key), err);
      // Before 1.4 Nomad has no `/v1/var` at all and answers 404 with an empty body.
      if (err instanceof UnexpectedResponseError && err.statusCode === 404)
        throw this.unsupported(
          key,
          `Nomad answered the lock request for "${path}" with 404: it has no variables (Nomad before 1.4)`,
          err,
        );
      throw err;
    }
    if (taken.Lock?.ID === lockId) return;
    // Nomad 1.4 to 1.6 has variables without locks: `?lock-acquire` was a plain write. Nothing
    // is locked, so a second run would believe it holds the job too: take the write back.
    await this.deleteWritten(key.namespace, path, taken.ModifyIndex);
    throw this.unsupported(
      key,
      `Nomad answered the lock request for "${path}" without a lock: its variables have no locks (Nomad 1.4 to 1.6)`,
    );
  }

  /**
   * Starts the lock's TTL again.
   * @throws JobLockLostError when Nomad refuses: the lock timed out, was taken, or its variable deleted.
   */
  public async renew(key: LockKey, owner: string, lockId: string): Promise<void> {
    try {
      await this.nomad.variables().renewLock(sharedLockPath(key.jobId), lockId, { namespace: key.namespace });
    } catch (err) {
      const refused = err instanceof UnexpectedResponseError && [403, 404, 409].includes(err.statusCode);
      if (!refused) throw err;
      throw await this.lostError(key, owner, err);
    }
  }

  /**
   * Releases the lock `lockId`, leaving its variable (see the file comment); `false` when `lockId`
   * does not hold it (any more: its TTL ran out, or someone took it meanwhile, and it is not ours
   * to release). Its holder's ID, as its engine kept it, frees a dead run's lock too; one whose
   * ID is lost to everyone frees only by its TTL.
   */
  public async release(key: LockKey, lockId: string): Promise<boolean> {
    try {
      await this.guard(key, 'write', () =>
        this.nomad.variables().releaseLock(sharedLockPath(key.jobId), lockId, { namespace: key.namespace }),
      );
    } catch (err) {
      if (isNotHeld(err)) return false;
      throw err;
    }
    return true;
  }

  private acquireLock(key: LockKey, owner: string, lockId: string): Promise<Variable> {
    const now = this.options.now ?? Date.now;
    const items: Record<string, string> = {
      ...Object.fromEntries(Object.entries(this.options.identity).filter(([, v]) => v !== undefined)),
      runId: owner,
      since: new Date(now()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    };
    return this.nomad.variables().acquireLock(
      sharedLockPath(key.jobId),
      items,
      {
        ID: lockId,
        TTL: this.options.ttl,
        ...(this.options.lockDelay === undefined ? {} : { LockDelay: this.options.lockDelay }),
      },
      { namespace: key.namespace },
    );
  }

  /** The lock variable's items, to name its holder; `undefined` when gone or unreadable. */
  private async read(key: LockKey): Promise<Variable | undefined> {
    try {
      return await this.nomad.variables().read(sharedLockPath(key.jobId), { namespace: key.namespace });
    } catch (err) {
      // A token without `read` may still hold and free the lock; only the holder's name is lost.
      if (err instanceof UnexpectedResponseError && err.statusCode === 403) {
        this.options.log?.warn(this.permissionText(key, 'read'), { jobId: key.jobId });
        return undefined;
      }
      throw err;
    }
  }

  /**
   * Deletes the variable a lock-acquire that locked nothing wrote (a Nomad before 1.7), checked
   * against the index it was written at: a run that took the lock meanwhile changed it, and
   * Nomad's 409 leaves its variable alone. Best effort: a variable left (a token without `destroy`,
   * which the README's policy does not grant) is harmless, taken again by the job's next run.
   */
  private async deleteWritten(namespace: string, path: string, writtenAt: number | undefined): Promise<void> {
    if (writtenAt === undefined) return;
    try {
      await this.nomad.variables().checkedDelete(path, writtenAt, { namespace });
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

  /** Why Nomad refused a renewal, naming the run that holds the job now when the variable says. */
  private async lostError(
    key: LockKey,
    owner: string,
    cause: UnexpectedResponseError,
  ): Promise<JobLockLostError> {
    const current = await this.read(key).catch(() => undefined);
    const holder = holderOf(current);
    let why: string;
    if (cause.statusCode === 403) why = `Nomad refused its renewal: ${this.permissionText(key, 'write')}`;
    else if (holder !== undefined && holder.runId !== owner)
      why = `it is held by run "${holder.runId}"${describeHolder(holder)} now`;
    else if (current === undefined) why = 'its variable was deleted';
    else why = 'Nomad freed it (it was not renewed within its TTL)';
    return new JobLockLostError(
      `The job's lock in Nomad was lost: ${why}`,
      holder !== undefined && holder.runId !== owner ? holder : undefined,
      { cause },
    );
  }

  private unsupported(key: LockKey, what: string, cause?: unknown): SharedLockUnsupportedError {
    return new SharedLockUnsupportedError(
      `${what}. The job's shared lock needs Nomad 1.7 or later; set ${VARIABLES_LOCK_ENV}=false to restart ` +
        `without it (namespace "${key.namespace}")`,
      cause === undefined ? undefined : { cause },
    );
  }

  private permissionText(key: LockKey, capability: Capability): string {
    const { namespace } = key;
    return (
      `the token needs the variables capability "${capability}" on path "${SHARED_LOCK_PREFIX}*" in namespace "${namespace}" ` +
      `(namespace "${namespace}" { variables { path "${SHARED_LOCK_PREFIX}*" { capabilities = ["read", "write"] } } })`
    );
  }

  /** Runs a Nomad call; a 403 becomes the message that says what the token needs, and the ways out. */
  private async guard<T>(key: LockKey, capability: Capability, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof UnexpectedResponseError) || err.statusCode !== 403) throw err;
      throw new SharedLockPermissionError(
        `Nomad denied the job's shared lock: ${this.permissionText(key, capability)}, ` +
          `or set ${VARIABLES_LOCK_ENV}=false to restart without it`,
        { cause: err },
      );
    }
  }
}
