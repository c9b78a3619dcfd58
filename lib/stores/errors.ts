/**
 * Errors of the AWS-backed stores (plan store, job lock, approvals). Each class sets a stable
 * `name`; messages name the key involved but never a task token or a Nomad token.
 */

/** Base class of every error the stores throw. */
export class StoreError extends Error {
  public constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StoreError';
  }
}

/** A key that should exist does not (an expired plan, an answered approval). */
export class StoreItemNotFoundError extends StoreError {
  public constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StoreItemNotFoundError';
  }
}

/** A stored item does not have the expected shape (written by another version, or tampered with). */
export class StoreDecodeError extends StoreError {
  public constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StoreDecodeError';
  }
}

/** The job lock is held by another run. `holder` is that run's id (an execution ARN). */
export class LockHeldError extends StoreError {
  public readonly holder: string;

  public constructor(key: string, holder: string, options?: ErrorOptions) {
    super(`Job "${key}" is being restarted by execution "${holder}"`, options);
    this.name = 'LockHeldError';
    this.holder = holder;
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
    this.name = 'SharedLockHeldError';
    this.details = details;
    this.askable = askable;
  }
}

/** The Nomad token may not write (or read) the job's lock variable; the message says what to grant. */
export class SharedLockPermissionError extends StoreError {
  public constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'SharedLockPermissionError';
  }
}
