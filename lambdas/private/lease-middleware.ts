/**
 * middy middleware for the steps after which a run may wait a long time (each await slice, and
 * "Decide" before a batch wait or a question): once the step has returned the next state, the
 * run's leases on the job's locks are renewed when they need it (`LockSteps.keepLease`), and the
 * state it returns says when.
 */
import type { MiddlewareObj, Request } from '@middy/core';
import type { Context } from 'aws-lambda';
import type { WorkflowState } from '../../lib/workflow/payloads';
import { plannedInput } from './decode-state';
import { logger } from './logger';
import { lockStepsFor } from './step-context';

/** Renews the leases of the run in the state the handler returns when due; a failed renewal is logged, not fatal. */
export function leaseMiddleware(): MiddlewareObj<unknown, unknown, Error, Context> {
  const leaseMiddlewareAfter = async (request: Request<unknown, unknown, Error, Context>): Promise<void> => {
    const state = request.response as WorkflowState;
    const kept = await lockStepsFor(request.context).keepLease(plannedInput(state));
    // The state carries when the leases were renewed: the next step decides from it.
    request.response = { ...state, run: kept.run };
    if (kept.renewed) return;
    const fields = { jobId: state.plan?.jobId, error: kept.reason };
    // The next safe point, which renews the lease too, stops a run that lost the job.
    if (kept.lost) logger.warn('Job lock lost; the next safe point stops the run', fields);
    else logger.warn('Lease not renewed; the next step tries again', fields);
  };
  return { after: leaseMiddlewareAfter };
}
