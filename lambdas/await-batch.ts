/** Task "Await batch": one slice of the blocking-query watch; the graph loops until `done`. */
import type { Context } from 'aws-lambda';
import type { WorkflowState } from '../lib/workflow/payloads';
import { awaitSlice } from './private/await-slices';
import { logger } from './private/logger';
import { stepHandler } from './private/step-handler';

const awaitBatch = async (event: unknown, context: Context): Promise<WorkflowState> => {
  const slice = await awaitSlice(
    event,
    context,
    (steps, input) => steps.awaitBatch(input),
    '"Await batch" runs after a batch started',
  );
  const { done, cursor, batch, events } = slice.out;
  logger.info('Await slice ended', { batch: batch.index, done });
  return {
    ...slice.state,
    batch: { ...batch, done, cursor, slicesThisExecution: slice.slicesThisExecution },
    events,
  };
};

export const handler = stepHandler(awaitBatch, { nomad: true, renewsLease: true, state: 'await-batch' });
