/**
 * The deployment check's execution input and question (`nomad-restart check`): an execution
 * started with `{"deploymentCheck": true}` asks one question through the deployed ask function and
 * ends once it is answered, without reading or writing anything in Nomad. It proves on the real
 * deployment what no local evaluator can decide: that a task token parked by the ask function can
 * be answered (by `SendTaskSuccess` under the operator's identity, and by the approval endpoint).
 *
 * This module has no CDK import: the validate-input Lambda bundles it.
 */
import { RestartValidationError } from '../restart/errors';

/** The input field that makes an execution a deployment check. */
export const DEPLOYMENT_CHECK_FIELD = 'deploymentCheck';

/**
 * The job the check's question names. Nomad refuses a job ID with a space (`nomad/structs`
 * `Job.Validate`: "Job ID contains a space"), so no lock of a real job can be this one's, and the
 * ask function's lock renewal finds nothing to renew.
 */
export const DEPLOYMENT_CHECK_JOB = '(deployment check)';

/** How long the check's question waits before the execution fails with `States.Timeout`. */
export const DEPLOYMENT_CHECK_TIMEOUT_SECONDS = 600;

/** The check's question, as the ask function stores it and chat shows it. */
export const DEPLOYMENT_CHECK_QUESTION = {
  kind: 'proceed',
  prompt: 'Deployment check from "nomad-restart check": no job is touched; answer yes',
  summary: 'nomad-restart check asks this question to prove that answers reach the state machine.',
} as const;

/** What "Validate deployment check" hands on: the run, for the ask step's lease owner. */
export interface DeploymentCheckState {
  readonly deploymentCheck: true;
  readonly run: { readonly runId: string; readonly executionId: string };
}

/**
 * Checks a deployment check's input: exactly `{"deploymentCheck": true}`. Any other field is
 * refused, so the check cannot carry restart options past the restart's own validation.
 * @throws RestartValidationError naming the field and quoting the value
 */
export function validateDeploymentCheckInput(raw: unknown, executionId: string): DeploymentCheckState {
  const input: Record<string, unknown> =
    raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const value = input[DEPLOYMENT_CHECK_FIELD];
  if (value !== true) {
    throw new RestartValidationError(
      `Invalid input field "${DEPLOYMENT_CHECK_FIELD}": got ${JSON.stringify(value) ?? 'nothing'}, expected true`,
      { field: DEPLOYMENT_CHECK_FIELD },
    );
  }
  const other = Object.keys(input).find((key) => key !== DEPLOYMENT_CHECK_FIELD);
  if (other !== undefined) {
    throw new RestartValidationError(
      `Invalid input field "${other}": got ${JSON.stringify(input[other])}, but a deployment check ` +
        `({"${DEPLOYMENT_CHECK_FIELD}": true}) takes no other field`,
      { field: other },
    );
  }
  return { deploymentCheck: true, run: { runId: executionId, executionId } };
}
