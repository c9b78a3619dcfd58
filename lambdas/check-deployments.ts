/**
 * Task "Check deployments": the safe point before a batch. A pending cancel request wins (no
 * Nomad call), then the maintenance window's end (no batch starts after it); otherwise the
 * job's locks are renewed (a run that lost them stops here, failed, restarting nothing more) and
 * the deployment guard runs.
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { windowHasEnded } from '../lib/restart/window';
import { clockOf } from '../lib/steps/kit/local-invocation';
import { JobLockLostError } from '../lib/stores/errors';
import { lockLeaseSeconds } from '../lib/stores/from-env';
import type { WorkflowState } from '../lib/workflow/payloads';
import { decodeWorkflowState, requirePlanned } from './private/decode-state';
import { jobLockFor } from './private/job-lock';
import { logger } from './private/logger';
import { nomadClientMiddleware } from './private/nomad-client-middleware';
import { stateBudgetMiddleware } from './private/state-budget-middleware';
import { stepsFor } from './private/step-context';
import { workflowErrorsMiddleware } from './private/workflow-errors-middleware';

const lambdaHandler = async (event: unknown, context: Context): Promise<WorkflowState> => {
  const state = decodeWorkflowState(event);
  const planned = requirePlanned(state);
  const lock = jobLockFor(context);
  const key = { namespace: planned.plan.namespace, jobId: planned.plan.jobId };
  if (await lock.isCancelRequested(key, state.run.runId)) {
    logger.info('Cancel requested', { jobId: key.jobId, batch: planned.progress.nextBatch });
    return { ...state, guard: { blocked: false, canceled: true }, events: [] };
  }
  if (windowHasEnded(state.options, clockOf(context)())) {
    const out = await stepsFor(context).stopAtWindowEnd({
      options: state.options,
      run: state.run,
      ...planned,
    });
    logger.info('Window ended', { jobId: key.jobId, batch: planned.progress.nextBatch });
    return { ...state, guard: { blocked: false, canceled: false, windowEnded: true }, events: out.events };
  }
  const input = { options: state.options, run: state.run, ...planned };
  try {
    await lock.refresh(key, state.run.runId, lockLeaseSeconds(), state.run.executionId);
  } catch (err) {
    if (!(err instanceof JobLockLostError)) throw err;
    logger.warn('Job lock lost', { jobId: key.jobId, batch: planned.progress.nextBatch });
    const out = await stepsFor(context).stopForLostLock(input, err.message);
    return { ...state, guard: { blocked: true, canceled: false, windowEnded: false }, ...out };
  }
  const out = await stepsFor(context).checkDeployments(input);
  logger.info('Deployment guard', { batch: planned.progress.nextBatch, blocked: out.blocked });
  return {
    ...state,
    guard: { blocked: out.blocked, canceled: false, windowEnded: false },
    progress: out.progress,
    events: out.events,
  };
};

export const handler = middy<unknown, WorkflowState, Error, Context>(lambdaHandler)
  .use(injectLambdaContext(logger))
  .use(nomadClientMiddleware())
  .use(workflowErrorsMiddleware())
  .use(stateBudgetMiddleware('check-deployments'));
