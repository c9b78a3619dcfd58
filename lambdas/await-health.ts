/** Task "Await health" (`-wait-healthy`): one slice of a batch's health wait; the graph loops until judged. */
import type { Context } from 'aws-lambda';
import type { WorkflowState } from '../lib/workflow/payloads';
import { slicesAfter } from './private/await-slices';
import { batchInput, decodeWorkflowState } from './private/decode-state';
import { logger } from './private/logger';
import { stepsFor } from './private/step-context';
import { stepHandler } from './private/step-handler';

const awaitHealth = async (event: unknown, context: Context): Promise<WorkflowState> => {
  const state = decodeWorkflowState(event);
  const input = batchInput(state, '"Await health" runs after a batch settled');
  const out = await stepsFor(context).awaitHealth(input);
  logger.info('Health slice ended', { batch: out.batch.index, done: out.done });
  const slicesThisExecution = slicesAfter(input.batch, out.done);
  return {
    ...state,
    batch: { ...out.batch, healthChecked: out.done, slicesThisExecution },
    events: out.events,
  };
};

export const handler = stepHandler(awaitHealth, { nomad: true, renewsLease: true, state: 'await-health' });
