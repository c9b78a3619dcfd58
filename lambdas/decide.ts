/** Task "Decide": after a batch, the safe point that picks ask / wait / next / finish / cancel. */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { jobLockFromEnv } from '../lib/stores/from-env';
import { StepPayloadError } from '../lib/workflow/errors';
import type { WorkflowState } from '../lib/workflow/payloads';
import { decodeWorkflowState, requirePlanned } from './private/decode-state';
import { keepLease } from './private/job-lock';
import { logger } from './private/logger';
import { nomadClientMiddleware } from './private/nomad-client-middleware';
import { stateBudgetMiddleware } from './private/state-budget-middleware';
import { stepsFor } from './private/step-context';
import { workflowErrorsMiddleware } from './private/workflow-errors-middleware';

const lambdaHandler = async (event: unknown, context: Context): Promise<WorkflowState> => {
  const state = decodeWorkflowState(event);
  const planned = requirePlanned(state);
  if (state.batch === null)
    throw new StepPayloadError('Task input has no batch: "Decide" runs after a batch');
  const key = { namespace: planned.plan.namespace, jobId: planned.plan.jobId };
  const cancelRequested = await jobLockFromEnv().isCancelRequested(key, state.run.runId);
  const out = await stepsFor(context).decide({
    options: state.options,
    run: state.run,
    ...planned,
    batch: state.batch,
    cancelRequested,
  });
  // The last step before a batch wait or a question: the leases must outlast either.
  await keepLease(context, key, state.run.runId, state.run.executionId);
  logger.info('Decided', { batch: state.batch.index, next: out.decision.action });
  // The batch is done: drop it so the state stays small across the loop.
  return { ...state, progress: out.progress, decision: out.decision, batch: null, events: out.events };
};

export const handler = middy<unknown, WorkflowState, Error, Context>(lambdaHandler)
  .use(injectLambdaContext(logger))
  .use(nomadClientMiddleware())
  .use(workflowErrorsMiddleware())
  .use(stateBudgetMiddleware('decide'));
