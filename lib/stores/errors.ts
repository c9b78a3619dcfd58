/**
 * Errors of the AWS-backed stores (plan store, job lock, approvals). Each class has a stable
 * `name`, its class name; messages name the key involved but never a task token or a Nomad token.
 */
import { NamedError } from '../errors/named-error';

/** Base class of every error the stores throw. */
export class StoreError extends NamedError {}

/** A key that should exist does not (an expired plan, an answered approval). */
export class StoreItemNotFoundError extends StoreError {}

/** A stored item does not have the expected shape (written by another version, or tampered with). */
export class StoreDecodeError extends StoreError {}

/**
 * The job lock is held by another run. `holder` is that run's id (its first execution's ARN);
 * `holderExecution` the execution running that run now, when the lock knows it (a run that
 * continued as new is its last execution's, not its first's).
 */
export class LockHeldError extends StoreError {
  public readonly holder: string;
  public readonly holderExecution: string | undefined;

  public constructor(
    key: string,
    holder: string,
    options?: ErrorOptions & { holderExecution?: string | undefined },
  ) {
    super(`Job "${key}" is being restarted by execution "${holder}"`, options);
    this.holder = holder;
    this.holderExecution = options?.holderExecution;
  }
}

/** Who holds a job's shared lock, as its holder wrote it into the lock variable's items. */
export interface SharedLockHolder {
  readonly runId: string;
  /** `local` (a `nomad-restart` process) or `aws` (a Step Functions execution). */
  readonly engine: string;
  /** Who started the run (the user name at a terminal). */
  readonly who: string;
  /** Where it runs (the host name at a terminal, `aws:<region>` on AWS). */
  readonly host: string;
  /** The holding process's id (local runs). */
  readonly pid?: string;
  /** When it took the lock (RFC 3339). */
  readonly since: string;
}

/** ` (started by alice on laptop-1 with the local engine, since …)`: where a holder's run comes from. */
export function describeHolder(holder: SharedLockHolder): string {
  return ` (started by ${holder.who} on ${holder.host} with the ${holder.engine} engine, since ${holder.since})`;
}

/**
 * The job's shared lock (a Nomad variable) is held by another run, possibly on another machine:
 * only its holder or Nomad (its TTL) frees it. `askable` when the holder is a run this engine can
 * ask about (an execution of this state machine, or a run of this very process).
 */
export class SharedLockHeldError extends LockHeldError {
  public readonly details: SharedLockHolder | undefined;
  public readonly askable: boolean;

  public constructor(
    key: string,
    details: SharedLockHolder | undefined,
    askable: boolean,
    options?: ErrorOptions,
  ) {
    super(key, details?.runId ?? 'unknown', options);
    this.details = details;
    this.askable = askable;
  }
}

/**
 * The job's shared lock cannot be had here at all (not held by anyone): a run with the lock
 * optional warns with this message and goes on with its engine's lock alone; with the lock
 * `required` it fails with it.
 */
export class SharedLockUnavailableError extends StoreError {}

/** The Nomad token may not write (or read) the job's lock variable; the message says what to grant. */
export class SharedLockPermissionError extends SharedLockUnavailableError {}

/**
 * This Nomad has no lock API: no variables at all before 1.4 (404 on `/v1/var`), or variables
 * without locks before 1.7 (a lock-acquire answered as a plain write, without a `Lock`).
 */
export class SharedLockUnsupportedError extends SharedLockUnavailableError {}

/**
 * The run held the job's lock and does not any more: Nomad refused its renewal (the lock timed out
 * and was freed or taken, or its variable was deleted), or the engine's own lock was taken over.
 * The run must not restart anything more. `holder` is the run that holds the job now, when known.
 */
export class JobLockLostError extends StoreError {
  public readonly holder: SharedLockHolder | undefined;

  public constructor(message: string, holder: SharedLockHolder | undefined, options?: ErrorOptions) {
    super(message, options);
    this.holder = holder;
  }
}
