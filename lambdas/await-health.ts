/** Task "Await health" (`-wait-healthy`): one slice of a batch's health wait; the graph loops until judged. */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { StepPayloadError } from '../lib/workflow/errors';
import type { WorkflowState } from '../lib/workflow/payloads';
import { slicesAfter } from './private/await-slices';
import { decodeWorkflowState, requirePlanned } from './private/decode-state';
import { keepLease } from './private/job-lock';
import { logger } from './private/logger';
import { nomadClientMiddleware } from './private/nomad-client-middleware';
import { stateBudgetMiddleware } from './private/state-budget-middleware';
import { stepsFor } from './private/step-context';
import { workflowErrorsMiddleware } from './private/workflow-errors-middleware';

const lambdaHandler = async (event: unknown, context: Context): Promise<WorkflowState> => {
  const state = decodeWorkflowState(event);
  if (state.batch === null)
    throw new StepPayloadError('Task input has no batch: "Await health" runs after a batch settled');
  const planned = requirePlanned(state);
  const out = await stepsFor(context).awaitHealth({
    options: state.options,
    run: state.run,
    ...planned,
    batch: state.batch,
  });
  const key = { namespace: planned.plan.namespace, jobId: planned.plan.jobId };
  await keepLease(context, key, state.run.runId, state.run.executionId);
  logger.info('Health slice ended', { batch: out.batch.index, done: out.done });
  const slices = slicesAfter(state.batch, out.done);
  return {
    ...state,
    batch: { ...out.batch, healthChecked: out.done, slicesThisExecution: slices },
    events: out.events,
  };
};

export const handler = middy<unknown, WorkflowState, Error, Context>(lambdaHandler)
  .use(injectLambdaContext(logger))
  .use(nomadClientMiddleware())
  .use(workflowErrorsMiddleware())
  .use(stateBudgetMiddleware('await-health'));
