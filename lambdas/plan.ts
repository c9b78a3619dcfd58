/**
 * Task "Plan restart": resolves the job and stores the batch plan (no lock, no Nomad writes). Its
 * events ride in `planEvents`, shown by "Lock job" once the job is this run's.
 *
 * It also runs the deployment check's "Reach Nomad" step (`{"deploymentCheck": true, "reach":
 * ...}`, lib/workflow/deployment-check-reach.ts): this function is placed, configured and granted
 * as every Nomad-calling one is, and reads Nomad and Consul, so what it reaches they reach.
 */
import type { Context } from 'aws-lambda';
import { reachFromDeployment } from '../lib/steps/plan/deployment-check-reach';
import type { ReachTarget } from '../lib/workflow/deployment-check';
import type { ReachReport } from '../lib/workflow/deployment-check-reach';
import { StepPayloadError } from '../lib/workflow/errors';
import type { WorkflowState } from '../lib/workflow/payloads';
import { consulReaderOf } from './private/consul-reader';
import { decodeWorkflowState } from './private/decode-state';
import { logger } from './private/logger';
import { nomadClientOf } from './private/nomad-client-middleware';
import { stepsFor } from './private/step-context';
import { stepHandler } from './private/step-handler';

/** The check's read: the job the validated check input names, from this function's Nomad and Consul. */
async function reachForCheck(event: { reach?: unknown }, context: Context): Promise<ReachReport> {
  const reach = event.reach as ReachTarget | undefined;
  if (typeof reach?.job !== 'string') {
    throw new StepPayloadError('Task input has no "reach.job": the state machine passes $.reach');
  }
  const report = await reachFromDeployment(
    { nomad: nomadClientOf(context), consul: consulReaderOf(context) },
    reach,
  );
  logger.info('Deployment check read', { job: reach.job, nomad: report.nomad.reached });
  return report;
}

const planRestart = async (event: unknown, context: Context): Promise<WorkflowState | ReachReport> => {
  // Only the deployment check's own Task says so: a restart's state has no such field.
  if ((event as { deploymentCheck?: unknown } | null)?.deploymentCheck === true)
    return reachForCheck(event as { reach?: unknown }, context);
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
