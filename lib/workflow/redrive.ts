/**
 * Step Functions' Redrive (console or `RedriveExecution`) resumes a failed, aborted or timed-out
 * execution at the state that did not succeed, with that state's input: mid-run, mid-batch, and
 * without the job's lock, which the execution's end released (the failure path, or the stale-lock
 * rule for an execution that died outside it). Nothing a restart does may run like that, so every
 * Lambda step receives `$$.Execution.RedriveCount` beside the state and refuses a redriven
 * execution before it touches anything.
 * (https://docs.aws.amazon.com/step-functions/latest/dg/redrive-executions.html,
 * https://docs.aws.amazon.com/step-functions/latest/dg/input-output-contextobject.html)
 */
import { ExecutionRedrivenError } from './errors';

/** The field of a Lambda step's payload that holds the workflow state. */
export const STEP_STATE_FIELD = 'state';
/** The field of a Lambda step's payload that holds `$$.Execution.RedriveCount`. */
export const REDRIVE_COUNT_FIELD = 'redriveCount';
/** Where the context object keeps how many times the execution was redriven. */
export const REDRIVE_COUNT_PATH = '$$.Execution.RedriveCount';

/** The message of {@link ExecutionRedrivenError}: what happened, and the way out. */
export const REDRIVEN_MESSAGE =
  "This execution was redriven: it would go on mid-run without the job's lock, which its end " +
  'released. Nothing was done; start a new run instead';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The workflow state out of a Lambda step's payload `{ state, redriveCount }`. An event without
 * the wrapper (a definition from before it, a test calling the handler directly) is the state.
 * @throws ExecutionRedrivenError when the execution was redriven
 */
export function unwrapStepEvent(event: unknown): unknown {
  if (!isRecord(event) || !(REDRIVE_COUNT_FIELD in event) || !(STEP_STATE_FIELD in event)) return event;
  const count = event[REDRIVE_COUNT_FIELD];
  if (typeof count === 'number' && count > 0) throw new ExecutionRedrivenError(REDRIVEN_MESSAGE);
  return event[STEP_STATE_FIELD];
}
