/**
 * The errors a local Task hands to aws-local-stepfunctions. They carry ASL error names (the
 * engine matches `Retry`/`Catch` on `name` and uses `message` as the cause), so they are not
 * `LocalEngineError`s and never reach the caller as exceptions: they end up in `ExecutionResult`.
 */

/** A task failed as a Lambda (or `SendTaskFailure`) would: `name` is the Step Functions error. */
export class TaskFailure extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }

  /**
   * Copies `name` and `message` only: a domain error's own `cause` must not replace the
   * message as the Step Functions cause (the engine prefers `cause` when it has one).
   */
  static from(error: unknown): TaskFailure {
    if (error instanceof Error) return new TaskFailure(error.name, error.message);
    return new TaskFailure('Error', String(error));
  }

  /**
   * A Lambda function's error as Step Functions reports it: the error is the function's
   * `errorType`, and the cause is not the message but the runtime's JSON
   * (`{"errorType","errorMessage","trace"}`), which is what a `Catch` hands on and a `Fail`
   * state with `CausePath` would show. Locally as on AWS, so no state reads a cleaner cause here
   * than it would get there.
   */
  static fromLambda(error: unknown): TaskFailure {
    const { name, message } = TaskFailure.from(error);
    const trace = error instanceof Error ? (error.stack?.split('\n') ?? []) : [];
    return new TaskFailure(name, JSON.stringify({ errorType: name, errorMessage: message, trace }));
  }
}

/**
 * A failure of the engine itself (a continue-as-new to another state machine, a chain too long),
 * named `States.Runtime` like Step Functions' own runtime errors, and like them neither
 * retried nor caught.
 */
export class EngineRuntimeFailure extends Error {
  readonly isRetryable = false;
  readonly isCatchable = false;

  constructor(message: string) {
    super(message);
    this.name = 'States.Runtime';
  }
}
