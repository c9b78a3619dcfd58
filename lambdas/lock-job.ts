/**
 * Task "Lock job": one restart per job. A second run fails fast naming the holder, unless the
 * holder is no longer running (it ended without releasing the lock): then this run takes the
 * lock over and says so. The lease never decides on its own.
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { jobRunKey, recordRunHoldsJob } from '../lib/steps/earlier-run';
import { LockHeldError } from '../lib/stores';
import {
  DEFAULT_LOCK_TTL_SECONDS,
  ENV,
  jobLockFromEnv,
  planStoreFromEnv,
  runStatusFromEnv,
  secondsFromEnv,
} from '../lib/stores/from-env';
import { JobLockedError } from '../lib/workflow/errors';
import type { WorkflowState } from '../lib/workflow/payloads';
import { decodeWorkflowState, requirePlanned } from './private/decode-state';
import { logger } from './private/logger';
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
  // The job's record names the run holding it, so a run after one that never ended resumes it.
  const holdsJob = () =>
    plan.planKey === ''
      ? Promise.resolve()
      : recordRunHoldsJob(
          planStoreFromEnv(),
          jobRunKey(plan.namespace, plan.jobId),
          state.run.runId,
          plan.planKey,
        );
  try {
    await lock.acquire(key, state.run.runId, ttl);
    await holdsJob();
    logger.info('Job locked', { jobId: plan.jobId, namespace: plan.namespace });
    return { ...state, events: [] };
  } catch (err) {
    if (!(err instanceof LockHeldError)) throw err;
    // A holder that cannot be asked about keeps its lock: failing safe means not restarting.
    const status = await runStatusFromEnv().status(err.holder);
    if (status === 'RUNNING') throw held(err.holder, err);
    try {
      await lock.takeOver(key, state.run.runId, err.holder, ttl);
    } catch (race) {
      if (race instanceof LockHeldError) throw held(race.holder, race);
      throw race;
    }
    await holdsJob();
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
