/**
 * Errors of the AWS engine. Each class has a stable `name`, its class name; messages say what failed in
 * words an operator can act on (the AWS error code and its message), never a task token or a
 * Nomad token, and never a stack trace: the CLI prints `message` as is.
 */
import { NamedError } from '../../errors/named-error';

/** Base class of every error the AWS engine throws on purpose. */
export class RemoteEngineError extends NamedError {}

/** The request cannot be sent: a bad state machine ARN, or options that do not validate. */
export class RemoteInputError extends RemoteEngineError {}

/**
 * An AWS call failed for good (after retries when the failure was throttling, a service hiccup
 * or the network). `code` is the AWS error name, e.g. `AccessDeniedException`.
 */
export class AwsCallError extends RemoteEngineError {
  /** The IAM action of the call, e.g. `states:StartExecution`. */
  public readonly action: string;
  /** The AWS error name (`ExecutionDoesNotExist`, `AccessDeniedException`, ...). */
  public readonly code: string;

  public constructor(action: string, code: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.action = action;
    this.code = code;
  }

  /** IAM refused the call: the caller lacks {@link action}. */
  public get accessDenied(): boolean {
    return isAccessDeniedCode(this.code);
  }
}

/** Whether an AWS error code says IAM refused the call (`AccessDeniedException`, S3's `AccessDenied`). */
export function isAccessDeniedCode(code: string): boolean {
  return code === 'AccessDeniedException' || code === 'AccessDenied';
}

/** Execution history does not have the shape the restart state machine writes. */
export class ExecutionHistoryError extends RemoteEngineError {}
