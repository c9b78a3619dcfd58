/**
 * How the await handlers ("Await batch", "Await health") run a slice: the batch of the state, one
 * slice of the step, and the slices counted, since the graph continues as new once an execution
 * has run its budget of slices for one batch.
 */
import type { Context } from 'aws-lambda';
import type { WorkflowState } from '../../lib/workflow/payloads';
import type { AwaitOutput, BatchStepInput, RestartSteps } from '../../lib/workflow/restart-steps';
import { batchInput, decodeWorkflowState } from './decode-state';
import { stepsFor } from './step-context';

/** One slice run: the state it ran on, the step's output, and the slices after it. */
export interface AwaitSlice {
  readonly state: WorkflowState;
  readonly out: AwaitOutput;
  /** Slices this execution has run for the batch after this one: back to 0 once it is over. */
  readonly slicesThisExecution: number;
}

/**
 * Runs one slice of `step` on the batch of the state in `event`; `order` is its no-batch message.
 * Each handler names its step in code (`(steps, input) => steps.awaitHealth(input)`), not by a
 * string key, so the IAM check's reachability (test/iam/helpers/reachable-code.ts) follows it.
 */
export async function awaitSlice(
  event: unknown,
  context: Context,
  step: (steps: RestartSteps, input: BatchStepInput) => Promise<AwaitOutput>,
  order: string,
): Promise<AwaitSlice> {
  const state = decodeWorkflowState(event);
  const input = batchInput(state, order);
  const out = await step(stepsFor(context), input);
  const slicesThisExecution = out.done ? 0 : (input.batch.slicesThisExecution ?? 0) + 1;
  return { state, out, slicesThisExecution };
}
