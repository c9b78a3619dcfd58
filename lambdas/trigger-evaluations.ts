/** Task "Trigger evaluations": system-job reschedules, one forced evaluation per stopped allocation. */
import type { Context } from 'aws-lambda';
import type { WorkflowState } from '../lib/workflow/payloads';
import { batchInput, decodeWorkflowState } from './private/decode-state';
import { logger } from './private/logger';
import { stepsFor } from './private/step-context';
import { stepHandler } from './private/step-handler';

const triggerEvaluations = async (event: unknown, context: Context): Promise<WorkflowState> => {
  const state = decodeWorkflowState(event);
  const input = batchInput(state, '"Trigger evaluations" runs after "Stop allocations"');
  const { batch, events } = await stepsFor(context).triggerEvaluations(input);
  logger.info('Evaluations triggered', { batch: batch.index });
  return { ...state, batch, events };
};

export const handler = stepHandler(triggerEvaluations, { nomad: true, state: 'trigger-evaluations' });
