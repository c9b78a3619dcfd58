/** Task "Await health" (`-wait-healthy`): one slice of a batch's health wait; the graph loops until judged. */
import type { Context } from 'aws-lambda';
import type { WorkflowState } from '../lib/workflow/payloads';
import { awaitSlice } from './private/await-slices';
import { logger } from './private/logger';
import { stepHandler } from './private/step-handler';

const awaitHealth = async (event: unknown, context: Context): Promise<WorkflowState> => {
  const slice = await awaitSlice(
    event,
    context,
    (steps, input) => steps.awaitHealth(input),
    '"Await health" runs after a batch settled',
  );
  const { done, batch, events } = slice.out;
  logger.info('Health slice ended', { batch: batch.index, done });
  const { slicesThisExecution } = slice;
  return { ...slice.state, batch: { ...batch, healthChecked: done, slicesThisExecution }, events };
};

export const handler = stepHandler(awaitHealth, {
  nomad: true,
  renewsLease: true,
  state: 'await-health',
  recordsProgress: 'health',
});
