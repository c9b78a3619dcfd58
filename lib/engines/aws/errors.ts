/**
 * Errors of the AWS engine. Each class sets a stable `name`; messages say what failed in
 * words an operator can act on (the AWS error code and its message), never a task token or a
 * Nomad token, and never a stack trace: the CLI prints `message` as is.
 */

/** Base class of every error the AWS engine throws on purpose. */
export class RemoteEngineError extends Error {
  public constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'RemoteEngineError';
  }
}

/** The request cannot be sent: a bad state machine ARN, or options that do not validate. */
export class RemoteInputError extends RemoteEngineError {
  public constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'RemoteInputError';
  }
}

/**
 * An AWS call failed for good (after retries when the failure was throttling or a service
 * hiccup). `code` is the AWS error name, e.g. `AccessDeniedException`.
 */
export class AwsCallError extends RemoteEngineError {
  /** The API operation, e.g. `StartExecution`. */
  public readonly operation: string;
  /** The AWS error name (`ExecutionDoesNotExist`, `AccessDeniedException`, ...). */
  public readonly code: string;

  public constructor(operation: string, code: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'AwsCallError';
    this.operation = operation;
    this.code = code;
  }
}

/** Execution history does not have the shape the restart state machine writes. */
export class ExecutionHistoryError extends RemoteEngineError {
  public constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ExecutionHistoryError';
  }
}
