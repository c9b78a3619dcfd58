/**
 * The settings of the job's shared lock in Nomad (lib/stores/nomad-variables-lock.ts): where its
 * variable lives, the switch that turns it on, off or required, the lease each engine asks for,
 * and who a run says it is in the variable's items.
 */
import { createHash } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import { parseGoBool } from '../go/strconv';
import type { SharedLockHolder } from './errors';

/**
 * Where every job's lock variable lives (a token needs `read` and `write` on `<prefix>*`; a
 * released lock's variable stays, lib/stores/nomad-variables-lock.ts).
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
  return jobVariablePath(SHARED_LOCK_PREFIX, jobId);
}

/**
 * Where run-control requests (lib/control/requests.ts) for a terminal run of a job are written by
 * anyone else (Nomad refuses a write to a locked variable by a non-holder: `errVarIsLocked` in
 * `nomad/variables_endpoint.go`), read by the lock's holder at its safe points. Needs `write` for
 * the requester, `read` and `destroy` for the holder.
 */
export const CONTROL_REQUEST_PREFIX = 'nomad-restart/requests/';

/** The request variable's path for `jobId`, encoded as {@link sharedLockPath} encodes it. */
export function controlRequestPath(jobId: string): string {
  return jobVariablePath(CONTROL_REQUEST_PREFIX, jobId);
}

/**
 * Where every job's restart history lives (issue #40, lib/history): runs `write` there (and `read`,
 * for the check-and-set), readers `read` and `list`.
 */
export const RUN_HISTORY_PREFIX = 'nomad-restart/history/';

/** The job's history variable's path, encoded as {@link sharedLockPath} encodes it. */
export function runHistoryPath(jobId: string): string {
  return jobVariablePath(RUN_HISTORY_PREFIX, jobId);
}

/**
 * The history of a namespace's fleet runs. `~f` is no encoded byte (`~` is always followed by two
 * hex digits in a job's path), so no job's history can be at this path.
 */
export const FLEET_HISTORY_PATH = `${RUN_HISTORY_PREFIX}~fleets`;

function jobVariablePath(prefix: string, jobId: string): string {
  const encoded = [...Buffer.from(jobId, 'utf8')]
    .map((byte) => {
      const c = String.fromCharCode(byte);
      return /[A-Za-z0-9_-]/.test(c) ? c : `~${byte.toString(16).padStart(2, '0')}`;
    })
    .join('');
  const room = MAX_PATH - prefix.length;
  if (encoded.length <= room) return `${prefix}${encoded}`;
  const hash = createHash('sha256').update(jobId).digest('hex').slice(0, 40);
  return `${prefix}${encoded.slice(0, room - hash.length - 1)}~${hash}`;
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

/**
 * The longest one wait of an execution may last (a batch wait, a question): nothing runs during it
 * to renew the job's locks (the engine's 24 h lease, the shared lock's 24 h TTL), so the renewal just
 * before it must outlast it, the steps around it included (an hour under the TTL). A terminal
 * renews its lock itself and has no such bound.
 */
export const AWS_LONGEST_WAIT_SECONDS = 23 * 60 * 60;

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
