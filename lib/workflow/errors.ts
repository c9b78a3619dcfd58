/**
 * Errors that cross the boundary between a task handler and the state machine. Step Functions
 * `Retry` and `Catch` match on an error's `name`, so every class here has a stable `name`,
 * its class name (set once by the base), and the state machine routes on exactly these strings
 * ({@link WORKFLOW_ERROR_NAMES}). Messages are Nomad's wording; they become the `Cause` of the
 * named `Fail` state, so they never contain the Nomad token.
 */
import { NamedError } from '../errors/named-error';

/** Base class of every error a task handler throws on purpose. */
export class WorkflowError extends NamedError {}

/**
 * The execution input failed the schema or Nomad's validation (`command/job_restart.go`
 * `parseAndValidate`). Ends in `InvalidInput`.
 */
export class InvalidInputError extends WorkflowError {}

/** Another execution holds the per-job lock. The message names the holder. Ends in `JobLocked`. */
export class JobLockedError extends WorkflowError {}

/**
 * A Nomad call failed in a way that can succeed later (connection refused, timeout, 502/503/504,
 * no cluster leader). Handlers re-throw `isTransientNomadError` failures as this so the
 * state machine's `Retry` (backoff + jitter) takes over; the cause keeps the original error.
 */
export class NomadTransientError extends WorkflowError {}

/**
 * An AWS call of a step (the plan store, a lock, an approval) failed in a way that can succeed
 * later: the handler re-throws it under this name so `Retry` matches it, and the retried step
 * (idempotent) redoes only what was not done.
 */
export class AwsTransientError extends WorkflowError {}

/**
 * The execution was redriven (Step Functions' Redrive of a failed, aborted or timed-out
 * execution): it would go on mid-run without the job's lock, which its end released. Ends in
 * `ExecutionRedriven`, before any Nomad call.
 */
export class ExecutionRedrivenError extends WorkflowError {}

/** The event a handler received does not have the shape the state machine sends. A bug, not bad user input. */
export class StepPayloadError extends WorkflowError {}

/**
 * Error names the state machine matches in `Retry`/`Catch`. The job-lookup and job-type
 * errors are the restart domain's own classes (`lib/restart/errors.ts`), thrown by Plan.
 */
export const WORKFLOW_ERROR_NAMES = {
  invalidInput: 'InvalidInputError',
  jobNotFound: 'JobNotFoundError',
  multipleJobsMatched: 'MultipleJobsMatchedError',
  jobLocked: 'JobLockedError',
  rescheduleNotAllowed: 'RescheduleNotAllowedError',
  nomadTransient: 'NomadTransientError',
  awsTransient: 'AwsTransientError',
  executionRedriven: 'ExecutionRedrivenError',
} as const;

export { causeMessage } from '../errors/cause-message';

/**
 * What `StartExecution` raises when an execution of that name exists: the continue-as-new
 * hand-over happened. Both spellings, as for the execution limit (private/retry-catch.ts). Here,
 * in a module without the CDK, because the run-end notifier reads it at run time.
 */
export const EXECUTION_ALREADY_EXISTS: readonly string[] = [
  'StepFunctions.ExecutionAlreadyExists',
  'StepFunctions.ExecutionAlreadyExistsException',
];
