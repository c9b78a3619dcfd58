/** Task "Finish restart": the final output (Nomad's `command/job_restart.go` `Run`) as a summary. */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import type { WorkflowState } from '../lib/workflow/payloads';
import { decodeWorkflowState } from './private/decode-state';
import { logger } from './private/logger';
import { nomadClientMiddleware } from './private/nomad-client-middleware';
import { stateBudgetMiddleware } from './private/state-budget-middleware';
import { stepsFor } from './private/step-context';
import { workflowErrorsMiddleware } from './private/workflow-errors-middleware';

const lambdaHandler = async (event: unknown, context: Context): Promise<WorkflowState> => {
  const state = decodeWorkflowState(event);
  const out = await stepsFor(context).finish({
    options: state.options,
    run: state.run,
    plan: state.plan,
    progress: state.progress,
  });
  logger.info('Restart finished', { outcome: out.summary.outcome, failed: out.summary.failed });
  return { ...state, summary: out.summary, events: out.events };
};

export const handler = middy<unknown, WorkflowState, Error, Context>(lambdaHandler)
  .use(injectLambdaContext(logger))
  .use(nomadClientMiddleware())
  .use(workflowErrorsMiddleware())
  .use(stateBudgetMiddleware('finish'));
