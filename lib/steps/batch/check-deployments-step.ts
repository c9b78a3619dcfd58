/**
 * "Check deployments": the deployment guard, once before each batch. An active deployment is
 * recorded as a run error and blocks the next batch; the graph then finishes.
 */
import type { GuardOutput, PlannedStepInput } from '../../workflow/restart-steps';
import type { StepKit } from '../kit/step-kit';
import { checkDeployments } from './deployments';

export async function checkDeploymentsStep(
  kit: StepKit,
  { options, run, plan: ref, progress }: PlannedStepInput,
): Promise<GuardOutput> {
  const plan = await kit.loadPlan(ref.planKey);
  const error = await checkDeployments(kit.nomadFor(options), plan.job, {
    verbose: options.verbose,
    signal: kit.signal,
  });
  if (error === null) return { events: [], blocked: false, progress };
  return kit.stopWithError(run.runId, error, progress);
}
