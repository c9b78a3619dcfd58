/** Task "Lock job": one restart per job; a second run fails fast naming the holder. */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { LockHeldError } from '../lib/stores';
import { DEFAULT_LOCK_TTL_SECONDS, ENV, jobLockFromEnv, secondsFromEnv } from '../lib/stores/from-env';
import { JobLockedError } from '../lib/workflow/errors';
import type { WorkflowState } from '../lib/workflow/payloads';
import { decodeWorkflowState, requirePlanned } from './private/decode-state';
import { logger } from './private/logger';
import { workflowErrorsMiddleware } from './private/workflow-errors-middleware';

const lambdaHandler = async (event: unknown): Promise<WorkflowState> => {
  const state = decodeWorkflowState(event);
  const { plan } = requirePlanned(state);
  try {
    await jobLockFromEnv().acquire(
      { namespace: plan.namespace, jobId: plan.jobId },
      state.run.runId,
      secondsFromEnv(ENV.lockTtlSeconds, DEFAULT_LOCK_TTL_SECONDS),
    );
  } catch (err) {
    if (err instanceof LockHeldError) {
      throw new JobLockedError(
        `Job "${plan.jobId}" in namespace "${plan.namespace}" is already being restarted by execution "${err.holder}"`,
        { cause: err },
      );
    }
    throw err;
  }
  logger.info('Job locked', { jobId: plan.jobId, namespace: plan.namespace });
  return { ...state, events: [] };
};

export const handler = middy<unknown, WorkflowState, Error, Context>(lambdaHandler)
  .use(injectLambdaContext(logger))
  .use(workflowErrorsMiddleware());
