/**
 * Task "Lock job": one restart per job. A second run fails fast naming the holder (a scheduled
 * run is skipped instead, with its own summary: it is not queued and pages no one), unless the
 * holder is no longer running (it ended without releasing the lock): then this run takes the
 * lock over and says so. The lease never decides on its own, except for the job's shared lock in
 * Nomad held by a run this engine cannot ask about (another laptop): only its holder or Nomad's
 * TTL frees that one. Plan's lines come out here, once the job is this run's: a refused run
 * shows none of them.
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import type { ProgressEvent } from '../lib/restart/events';
import { skipsWhenLocked } from '../lib/restart/window';
import { jobRunKey, recordRunHoldsJob } from '../lib/steps/plan/earlier-run';
import { describeHolder, LockHeldError, SharedLockHeldError } from '../lib/stores/errors';
import { lockLeaseSeconds, planStoreFromEnv, runStatusFromEnv } from '../lib/stores/from-env';
import type { PairedJobLock } from '../lib/stores/paired-job-lock';
import type { RunStatus } from '../lib/stores/run-status';
import { JobLockedError } from '../lib/workflow/errors';
import type { WorkflowState } from '../lib/workflow/payloads';
import { decodeWorkflowState, requirePlanned } from './private/decode-state';
import { jobLockFor } from './private/job-lock';
import { logger } from './private/logger';
import { nomadClientMiddleware } from './private/nomad-client-middleware';
import { skippedForLock } from './private/skipped-for-lock';
import { workflowErrorsMiddleware } from './private/workflow-errors-middleware';

/** Who holds the job: an execution, or a run named by the shared lock's variable. */
function holderName(err: LockHeldError): string {
  if (!(err instanceof SharedLockHeldError)) return `execution "${err.holder}"`;
  // The holder is written into the variable's items: a token without "read" cannot see them.
  if (err.details === undefined) return 'another run (its lock in Nomad does not say which to this token)';
  return `run "${err.holder}"${describeHolder(err.details)}`;
}

/** The warning of a run that goes on without the job's shared lock (out of reach, and optional). */
function sharedLockSkipped(lock: PairedJobLock, jobId: string): ProgressEvent[] {
  const skipped = lock.sharedSkipped;
  return skipped === undefined
    ? []
    : [{ type: 'shared-lock-skipped', time: Date.now(), jobId, reason: skipped.message }];
}

/**
 * Whether the run holding the lock still runs, from the status of the execution the lock names as
 * running it. `SUCCEEDED` with the lock still held means it continued as new: every other way out
 * of an execution releases the lock first ("Release lock"), and the successor names itself in the
 * lock as it starts ("Resume run"), so the chain, not its first link, decides.
 */
const stillRuns = (status: RunStatus): boolean => status === 'RUNNING' || status === 'SUCCEEDED';

const lambdaHandler = async (event: unknown, context: Context): Promise<WorkflowState> => {
  // Plan's lines are shown only once the job is this run's; a refused or skipped run drops them.
  const { planEvents = [], ...state } = decodeWorkflowState(event);
  const { plan } = requirePlanned(state);
  const key = { namespace: plan.namespace, jobId: plan.jobId };
  const ttl = lockLeaseSeconds();
  const lock = jobLockFor(context);
  const held = (err: LockHeldError) =>
    new JobLockedError(
      `Job "${plan.jobId}" in namespace "${plan.namespace}" is already being restarted by ${holderName(err)}`,
      {
        cause: err,
      },
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
    await lock.take(key, state.run.runId, ttl, state.run.executionId);
    await holdsJob();
    logger.info('Job locked', { jobId: plan.jobId, namespace: plan.namespace });
    return { ...state, events: [...planEvents, ...sharedLockSkipped(lock, plan.jobId)] };
  } catch (err) {
    if (!(err instanceof LockHeldError)) throw err;
    // Another run keeps the job: this one fails, or, scheduled, is skipped.
    const lockedOut = (by: LockHeldError): WorkflowState => {
      if (!skipsWhenLocked(state.options)) throw held(by);
      logger.info('Scheduled run skipped: job locked', { jobId: plan.jobId, holder: by.holder });
      return skippedForLock(state, by.holder, Date.now());
    };
    if (err instanceof SharedLockHeldError && !err.askable) return lockedOut(err);
    // A holder that cannot be asked about keeps its lock: failing safe means not restarting.
    const status = await runStatusFromEnv().status(err.holderExecution ?? err.holder);
    if (stillRuns(status)) return lockedOut(err);
    try {
      await lock.takeOver(key, state.run.runId, err.holder, ttl, state.run.executionId);
    } catch (race) {
      if (race instanceof LockHeldError) throw held(race);
      throw race;
    }
    await holdsJob();
    logger.info('Job lock taken over', { jobId: plan.jobId, previousStatus: status });
    return {
      ...state,
      events: [
        ...planEvents,
        ...sharedLockSkipped(lock, plan.jobId),
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
  .use(nomadClientMiddleware())
  .use(workflowErrorsMiddleware());
