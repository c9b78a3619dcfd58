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
