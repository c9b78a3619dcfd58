/**
 * Task "Plan restart": resolves the job and stores the batch plan (no lock, no Nomad writes). Its
 * events ride in `planEvents`, shown by "Lock job" once the job is this run's.
 */
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
  const out = await stepsFor(context).plan({ options: state.options, run: state.run });
  logger.info('Planned restart', {
    jobId: out.plan.jobId,
    namespace: out.plan.namespace,
    allocations: out.plan.allocationCount,
    batches: out.plan.batchCount,
    next: out.decision.action,
  });
  // Its lines wait for "Lock job": a run refused the job must not say it is restarting it.
  return {
    ...state,
    plan: out.plan,
    progress: out.progress,
    decision: out.decision,
    events: [],
    planEvents: out.events,
  };
};

export const handler = middy<unknown, WorkflowState, Error, Context>(lambdaHandler)
  .use(injectLambdaContext(logger))
  .use(nomadClientMiddleware())
  .use(workflowErrorsMiddleware())
  .use(stateBudgetMiddleware('plan'));
