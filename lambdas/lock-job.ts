/**
 * Task "Lock job": one restart per job. A second run fails fast naming the holder (a scheduled
 * run is skipped instead, with its own summary: it is not queued and pages no one), unless the
 * holder is no longer running (it ended without releasing the lock): then this run takes the
 * lock over and says so. The lease never decides on its own.
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { skipsWhenLocked } from '../lib/restart/window';
import { LockHeldError } from '../lib/stores/errors';
import {
  DEFAULT_LOCK_TTL_SECONDS,
  ENV,
  jobLockFromEnv,
  runStatusFromEnv,
  secondsFromEnv,
} from '../lib/stores/from-env';
import { JobLockedError } from '../lib/workflow/errors';
import type { WorkflowState } from '../lib/workflow/payloads';
import { decodeWorkflowState, requirePlanned } from './private/decode-state';
import { logger } from './private/logger';
import { skippedForLock } from './private/skipped-for-lock';
import { workflowErrorsMiddleware } from './private/workflow-errors-middleware';

const lambdaHandler = async (event: unknown): Promise<WorkflowState> => {
  const state = decodeWorkflowState(event);
  const { plan } = requirePlanned(state);
  const key = { namespace: plan.namespace, jobId: plan.jobId };
  const ttl = secondsFromEnv(ENV.lockTtlSeconds, DEFAULT_LOCK_TTL_SECONDS);
  const lock = jobLockFromEnv();
  const held = (holder: string, cause: unknown) =>
    new JobLockedError(
      `Job "${plan.jobId}" in namespace "${plan.namespace}" is already being restarted by execution "${holder}"`,
      { cause },
    );
  try {
    await lock.acquire(key, state.run.runId, ttl);
    logger.info('Job locked', { jobId: plan.jobId, namespace: plan.namespace });
    return { ...state, events: [] };
  } catch (err) {
    if (!(err instanceof LockHeldError)) throw err;
    // A holder that cannot be asked about keeps its lock: failing safe means not restarting.
    const status = await runStatusFromEnv().status(err.holder);
    if (status === 'RUNNING') {
      if (!skipsWhenLocked(state.options)) throw held(err.holder, err);
      logger.info('Scheduled run skipped: job locked', { jobId: plan.jobId, holder: err.holder });
      return skippedForLock(state, err.holder, Date.now());
    }
    try {
      await lock.takeOver(key, state.run.runId, err.holder, ttl);
    } catch (race) {
      if (race instanceof LockHeldError) throw held(race.holder, race);
      throw race;
    }
    logger.info('Job lock taken over', { jobId: plan.jobId, previousStatus: status });
    return {
      ...state,
      events: [
        {
          type: 'lock-taken-over',
          time: Date.now(),
          jobId: plan.jobId,
          previousRun: err.holder,
          previousStatus: status,
        },
      ],
    };
  }
};

export const handler = middy<unknown, WorkflowState, Error, Context>(lambdaHandler)
  .use(injectLambdaContext(logger))
  .use(workflowErrorsMiddleware());
