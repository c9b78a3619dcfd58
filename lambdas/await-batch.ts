/** Task "Await batch": one slice of the blocking-query watch; the graph loops until `done`. */
import type { Context } from 'aws-lambda';
import type { WorkflowState } from '../lib/workflow/payloads';
import { slicesAfter } from './private/await-slices';
import { batchInput, decodeWorkflowState } from './private/decode-state';
import { logger } from './private/logger';
import { stepsFor } from './private/step-context';
import { stepHandler } from './private/step-handler';

const awaitBatch = async (event: unknown, context: Context): Promise<WorkflowState> => {
  const state = decodeWorkflowState(event);
  const input = batchInput(state, '"Await batch" runs after a batch started');
  const out = await stepsFor(context).awaitBatch(input);
  logger.info('Await slice ended', { batch: out.batch.index, done: out.done });
  const slicesThisExecution = slicesAfter(input.batch, out.done);
  return {
    ...state,
    batch: { ...out.batch, done: out.done, cursor: out.cursor, slicesThisExecution },
    events: out.events,
  };
};

export const handler = stepHandler(awaitBatch, { nomad: true, renewsLease: true, state: 'await-batch' });
