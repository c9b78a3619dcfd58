/**
 * Task "Decide": after a batch, the safe point that picks ask / wait / next / finish / cancel (or
 * `bake` after the last one, with `-bake-time`). It also serves "Check while baking", the bake's
 * check after each of its waits: the same lease renewal, plan store and alarm reads.
 */
import type { Context } from 'aws-lambda';
import type { WorkflowState } from '../lib/workflow/payloads';
import { batchInput, decodeWorkflowState, plannedInput } from './private/decode-state';
import { logger } from './private/logger';
import { lockStepsFor, stepsFor } from './private/step-context';
import { stepHandler } from './private/step-handler';

const decide = async (event: unknown, context: Context): Promise<WorkflowState> => {
  const state = decodeWorkflowState(event);
  if (state.decision?.action === 'bake') return checkWhileBaking(state, context);
  const input = batchInput(state, '"Decide" runs after a batch');
  const cancelRequested = await lockStepsFor(context).cancelRequested(input);
  const out = await stepsFor(context).decide({ ...input, cancelRequested });
  logger.info('Decided', { batch: input.batch.index, next: out.decision.action });
  // The batch is done: drop it so the state stays small across the loop.
  return { ...state, progress: out.progress, decision: out.decision, batch: null, events: out.events };
};

/** "Check while baking": the bake's next check (lib/steps/alarms/bake-step.ts). */
async function checkWhileBaking(state: WorkflowState, context: Context): Promise<WorkflowState> {
  const input = plannedInput(state);
  const cancelRequested = await lockStepsFor(context).cancelRequested(input);
  const out = await stepsFor(context).bake({ ...input, cancelRequested });
  logger.info('Checked while baking', { next: out.decision.action });
  return { ...state, progress: out.progress, decision: out.decision, events: out.events };
}

// The last step before a batch wait or a question: the leases must outlast either.
export const handler = stepHandler(decide, {
  nomad: true,
  renewsLease: true,
  state: 'decide',
  recordsProgress: 'batch',
});
