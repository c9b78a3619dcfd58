/**
 * Task "Plan restart": resolves the job and stores the batch plan (no lock, no Nomad writes). Its
 * events ride in `planEvents`, shown by "Lock job" once the job is this run's.
 */
import type { Context } from 'aws-lambda';
import type { WorkflowState } from '../lib/workflow/payloads';
import { decodeWorkflowState } from './private/decode-state';
import { logger } from './private/logger';
import { stepsFor } from './private/step-context';
import { stepHandler } from './private/step-handler';

const planRestart = async (event: unknown, context: Context): Promise<WorkflowState> => {
  const state = decodeWorkflowState(event);
  const out = await stepsFor(context).plan({ options: state.options, run: state.run });
  const { plan, progress, decision } = out;
  logger.info('Planned restart', {
    jobId: plan.jobId,
    namespace: plan.namespace,
    allocations: plan.allocationCount,
    batches: plan.batchCount,
    next: decision.action,
  });
  // Its lines wait for "Lock job": a run refused the job must not say it is restarting it.
  return { ...state, plan, progress, decision, events: [], planEvents: out.events };
};

export const handler = stepHandler(planRestart, { nomad: true, state: 'plan' });
