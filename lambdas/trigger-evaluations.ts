/** Task "Trigger evaluations": system-job reschedules, one forced evaluation per stopped allocation. */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { StepPayloadError } from '../lib/workflow/errors';
import type { WorkflowState } from '../lib/workflow/payloads';
import { decodeWorkflowState, requirePlanned } from './private/decode-state';
import { logger } from './private/logger';
import { nomadClientMiddleware } from './private/nomad-client-middleware';
import { stateBudgetMiddleware } from './private/state-budget-middleware';
import { stepsFor } from './private/step-context';
import { workflowErrorsMiddleware } from './private/workflow-errors-middleware';

const lambdaHandler = async (event: unknown, context: Context): Promise<WorkflowState> => {
  const state = decodeWorkflowState(event);
  if (state.batch === null)
    throw new StepPayloadError(
      'Task input has no batch: "Trigger evaluations" runs after "Stop allocations"',
    );
  const out = await stepsFor(context).triggerEvaluations({
    options: state.options,
    run: state.run,
    ...requirePlanned(state),
    batch: state.batch,
  });
  logger.info('Evaluations triggered', { batch: out.batch.index });
  return { ...state, batch: out.batch, events: out.events };
};

export const handler = middy<unknown, WorkflowState, Error, Context>(lambdaHandler)
  .use(injectLambdaContext(logger))
  .use(nomadClientMiddleware())
  .use(workflowErrorsMiddleware())
  .use(stateBudgetMiddleware('trigger-evaluations'));
