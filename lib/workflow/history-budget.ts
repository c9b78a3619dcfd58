/**
 * Step Functions' 25,000-event history limit as a budget: each Lambda step adds what it and the
 * flow states after it write to the execution's history, and the graph continues as new once
 * the estimate reaches {@link HISTORY_EVENT_BUDGET}, whatever mix of batches, await slices,
 * health slices and questions got it there. Past the limit an execution fails outright, with no
 * Catch and the lock held (https://docs.aws.amazon.com/step-functions/latest/dg/service-quotas.html).
 *
 * Events per state, after the Standard-workflow history event types (the local engine's
 * `lib/engines/local/stats.ts` counts the same way): a Lambda Task writes `TaskStateEntered`,
 * `LambdaFunctionScheduled`, `LambdaFunctionStarted`, `LambdaFunctionSucceeded` and
 * `TaskStateExited` (5); a callback Task one more (`TaskSubmitted`, 6); a Choice, Wait or Succeed
 * state entered and exited (2); the execution's start and end 1 each.
 */
import type { HandlerId } from './state-names';

/** Step Functions' limit of history events in one execution. */
export const HISTORY_EVENT_LIMIT = 25_000;

/**
 * Where an execution hands over to the next: 5,000 below the limit. The margin holds what the
 * estimate leaves out (each retried attempt writes 3 events; 5,000 is more than 1,600 retries in
 * one execution) and the longest way out after the last check (finish or the failure path, fewer
 * than 60 events).
 */
export const HISTORY_EVENT_BUDGET = 20_000;

const LAMBDA_TASK = 5;
const CALLBACK_TASK = 6;
const FLOW_STATE = 2;

/**
 * Events a handler's invocation stands for: its own Task, plus the most the flow states after it
 * can write before the next Lambda Task (a handler serving two states is charged for the dearer).
 * Steps that do not carry the estimate are charged by the step that does, before or after them.
 */
export const HISTORY_EVENTS_PER_STEP: Readonly<Partial<Record<HandlerId, number>>> = {
  // ExecutionStarted, "Continuation?", Validate input, Plan restart, Lock job, "Locked by another
  // run?", then "Next step?" and "Wait before next batch" on the way to the first batch.
  plan: 1 + FLOW_STATE + 3 * LAMBDA_TASK + 3 * FLOW_STATE,
  // ExecutionStarted, "Continuation?", Resume run, "Resume where?", and the loop's "Next step?"
  // and "Wait before next batch" (or the "Batch settled?" of a resumed await).
  'resume-run': 1 + FLOW_STATE + LAMBDA_TASK + 3 * FLOW_STATE,
  // "Safe to restart?"
  'check-deployments': LAMBDA_TASK + FLOW_STATE,
  // "Batch settled?" after "Restart batch"; "Stop allocations" goes straight on to a Task.
  'restart-batch': LAMBDA_TASK + FLOW_STATE,
  'trigger-evaluations': LAMBDA_TASK,
  // "Batch settled?" after each slice.
  'await-batch': LAMBDA_TASK + FLOW_STATE,
  'await-health': LAMBDA_TASK + FLOW_STATE,
  // "Next step?", then "Wait before next batch".
  decide: LAMBDA_TASK + 2 * FLOW_STATE,
  // The question itself (its result is the answer, so "Apply answer" counts it), then "Next
  // step?" and "Wait before next batch".
  'apply-answer': CALLBACK_TASK + LAMBDA_TASK + 2 * FLOW_STATE,
};

/** Events charged for one invocation of `handler` (0 for a step outside the batch loop's budget). */
export function historyEventsOf(handler: HandlerId): number {
  return HISTORY_EVENTS_PER_STEP[handler] ?? 0;
}

/**
 * The cheapest batch: in place, settled by "Restart batch" itself (no await slice, no health
 * wait), no question, no wait between batches.
 */
export const LIGHTEST_BATCH_EVENTS =
  historyEventsOf('check-deployments') + historyEventsOf('restart-batch') + historyEventsOf('decide');

/** The most batches one execution can run within {@link HISTORY_EVENT_BUDGET}: the ceiling of `batchesPerExecution`. */
export const MAX_BATCHES_PER_EXECUTION = Math.floor(HISTORY_EVENT_BUDGET / LIGHTEST_BATCH_EVENTS);
