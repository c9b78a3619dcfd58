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

/** The input field naming the job the check reads from inside the deployment. */
export const DEPLOYMENT_CHECK_REACH_FIELD = 'reach';

/** Where "Reach Nomad for deployment check" puts its report (`ReachReport`) in the state. */
export const REACHED_FIELD = 'reached';

/** The job the check reads from where the Nomad-calling functions run. */
export interface ReachTarget {
  readonly job: string;
  /** @default - the functions' own (`NOMAD_NAMESPACE`, else `default`) */
  readonly namespace?: string;
}

/** What "Validate deployment check" hands on: the run, for the ask step's lease owner. */
export interface DeploymentCheckState {
  readonly deploymentCheck: true;
  readonly run: { readonly runId: string; readonly executionId: string };
  /** Present when the check reads a job from inside the deployment. */
  readonly reach?: ReachTarget;
}

const refuse = (field: string, value: unknown, expected: string) =>
  new RestartValidationError(
    `Invalid input field "${field}": got ${JSON.stringify(value) ?? 'nothing'}, expected ${expected}`,
    { field },
  );

/** `reach`: `{"job": <non-empty string>, "namespace"?: <string>}` and nothing else. */
function validateReach(value: unknown): ReachTarget {
  const field = DEPLOYMENT_CHECK_REACH_FIELD;
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw refuse(field, value, 'an object {"job": <job ID>, "namespace"?: <namespace>}');
  const reach = value as Record<string, unknown>;
  const job = reach['job'];
  if (typeof job !== 'string' || job.trim() === '') throw refuse(`${field}.job`, job, 'a job ID');
  const namespace = reach['namespace'];
  if (namespace !== undefined && typeof namespace !== 'string')
    throw refuse(`${field}.namespace`, namespace, 'a namespace name');
  const other = Object.keys(reach).find((key) => key !== 'job' && key !== 'namespace');
  if (other !== undefined) throw refuse(`${field}.${other}`, reach[other], 'only "job" and "namespace"');
  return namespace === undefined || namespace === '' ? { job } : { job, namespace };
}

/**
 * Checks a deployment check's input: exactly `{"deploymentCheck": true}`, with `reach` optionally.
 * Any other field is refused, so the check cannot carry restart options past the restart's own
 * validation.
 * @throws RestartValidationError naming the field and quoting the value
 */
export function validateDeploymentCheckInput(raw: unknown, executionId: string): DeploymentCheckState {
  const input: Record<string, unknown> =
    raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const value = input[DEPLOYMENT_CHECK_FIELD];
  if (value !== true) throw refuse(DEPLOYMENT_CHECK_FIELD, value, 'true');
  const other = Object.keys(input).find(
    (key) => key !== DEPLOYMENT_CHECK_FIELD && key !== DEPLOYMENT_CHECK_REACH_FIELD,
  );
  if (other !== undefined) {
    throw new RestartValidationError(
      `Invalid input field "${other}": got ${JSON.stringify(input[other])}, but a deployment check ` +
        `({"${DEPLOYMENT_CHECK_FIELD}": true}) takes no other field than "reach"`,
      { field: other },
    );
  }
  const run = { runId: executionId, executionId };
  const reach = input[DEPLOYMENT_CHECK_REACH_FIELD];
  return reach === undefined
    ? { deploymentCheck: true, run }
    : { deploymentCheck: true, run, reach: validateReach(reach) };
}
