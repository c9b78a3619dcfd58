/**
 * Tasks "Release lock" and "Release lock after error". Tolerates any state, because the
 * failure path can start before a plan exists; releasing a lock this run does not hold is a
 * no-op, so a `JobLocked` failure never frees the other run's lock. It also marks the run's
 * plan-store documents as ended, the only ones the bucket lets expire, and the job's record of
 * it ended: a run that ends through the workflow is never resumed (see earlier-run.ts). It leaves
 * the failure's cause readable for the Fail state that follows (Lambda's error JSON, trace
 * included, becomes its message).
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { jobRunKey, recordRunEnded } from '../lib/steps/plan/earlier-run';
import { planStoreFromEnv } from '../lib/stores/from-env';
import { runKeyPrefix } from '../lib/stores/plan-store';
import { causeMessage } from '../lib/workflow/errors';
import { jobLockFor } from './private/job-lock';
import { logger } from './private/logger';
import { nomadClientMiddleware } from './private/nomad-client-middleware';
import { workflowErrorsMiddleware } from './private/workflow-errors-middleware';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const field = (v: unknown, k: string): unknown =>
  v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;

const lambdaHandler = async (event: unknown, context: Context): Promise<unknown> => {
  const runId = str(field(field(event, 'run'), 'runId'));
  const plan = field(event, 'plan');
  const namespace = str(field(plan, 'namespace'));
  const jobId = str(field(plan, 'jobId'));
  let released = false;
  if (runId !== undefined && namespace !== undefined && jobId !== undefined) {
    released = await jobLockFor(context).release({ namespace, jobId }, runId);
    // Either way out of the workflow ends the run: the next one starts afresh, not resuming it.
    await recordRunEnded(planStoreFromEnv(), jobRunKey(namespace, jobId), runId, Date.now());
  }
  // The run is over (this is the last step of every way out): its documents may expire now.
  if (runId !== undefined) await planStoreFromEnv().endRun(runKeyPrefix(runId));
  logger.info('Lock release', { jobId: jobId ?? null, released });
  if (event === null || typeof event !== 'object') return event;
  const error = field(event, 'error');
  const cause = str(field(error, 'Cause'));
  return {
    ...event,
    events: [],
    ...(cause === undefined ? {} : { error: { ...(error as object), Cause: causeMessage(cause) } }),
  };
};

export const handler = middy<unknown, unknown, Error, Context>(lambdaHandler)
  .use(injectLambdaContext(logger))
  .use(nomadClientMiddleware())
  .use(workflowErrorsMiddleware());
