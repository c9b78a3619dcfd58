/** Tasks "Restart batch" and "Stop allocations": starts every allocation of the next batch. */
import type { Context } from 'aws-lambda';
import type { WorkflowState } from '../lib/workflow/payloads';
import { decodeWorkflowState, plannedInput } from './private/decode-state';
import { logger } from './private/logger';
import { stepsFor } from './private/step-context';
import { stepHandler } from './private/step-handler';

const restartBatch = async (event: unknown, context: Context): Promise<WorkflowState> => {
  const state = decodeWorkflowState(event);
  const { batch, events } = await stepsFor(context).restartBatch(plannedInput(state));
  logger.info('Batch started', { batch: batch.index, size: batch.size, done: batch.done });
  return { ...state, batch, events };
};

export const handler = stepHandler(restartBatch, { nomad: true, state: 'restart-batch' });
