/** Tasks "Restart batch" and "Stop allocations": starts every allocation of the next batch. */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import type { WorkflowState } from '../lib/workflow/payloads';
import { decodeWorkflowState, requirePlanned } from './private/decode-state';
import { logger } from './private/logger';
import { nomadClientMiddleware } from './private/nomad-client-middleware';
import { stateBudgetMiddleware } from './private/state-budget-middleware';
import { stepsFor } from './private/step-context';
import { workflowErrorsMiddleware } from './private/workflow-errors-middleware';

const lambdaHandler = async (event: unknown, context: Context): Promise<WorkflowState> => {
  const state = decodeWorkflowState(event);
  const out = await stepsFor(context).restartBatch({
    options: state.options,
    run: state.run,
    ...requirePlanned(state),
  });
  logger.info('Batch started', { batch: out.batch.index, size: out.batch.size, done: out.batch.done });
  return { ...state, batch: out.batch, events: out.events };
};

export const handler = middy<unknown, WorkflowState, Error, Context>(lambdaHandler)
  .use(injectLambdaContext(logger))
  .use(nomadClientMiddleware())
  .use(workflowErrorsMiddleware())
  .use(stateBudgetMiddleware('restart-batch'));
