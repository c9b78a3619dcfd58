/**
 * The deployment guard before each batch: an active deployment of the job stops the run (Nomad's
 * `command/job_restart.go` `ensureNoActiveDeployment`).
 */
import type { NomadClient } from '../../nomad/client';
import type { Deployment } from '../../nomad/types';
import type { BatchError } from '../../restart/allocation-errors';
import { DeploymentActiveError, NomadQueryError } from '../../restart/errors';
import type { PlannedJob } from '../../restart/plan';

/**
 * Deployment statuses Nomad's CLI treats as over; anything else, unknown ones included, is active
 * (`command/job_restart.go` `ensureNoActiveDeployment`).
 */
const TERMINAL_DEPLOYMENT_STATUSES: ReadonlySet<string> = new Set(['failed', 'successful', 'cancelled']);

/** Options of {@link checkDeployments}. */
export interface CheckDeploymentsOptions {
  /** Full deployment IDs in the message with `-verbose`, 8 characters otherwise. */
  readonly verbose: boolean;
  readonly signal?: AbortSignal | undefined;
}

/**
 * The active-deployment guard (Nomad's `command/job_restart.go` `ensureNoActiveDeployment`):
 * `Deployment "<id>" is "<status>"` when any deployment of the job is not terminal, `Error
 * retrieving deployments for job ...` when the check itself fails, `null` when the batch may start.
 * Either error stops the run.
 *
 * Nomad checks before every allocation; we check once before each batch, which costs one
 * request per batch. A deployment that appears during a batch is found before the next
 * one, after the batch's allocations have been collected and reported (README, "Differences from
 * nomad job restart").
 */
export async function checkDeployments(
  client: NomadClient,
  job: PlannedJob,
  options: CheckDeploymentsOptions,
): Promise<BatchError | null> {
  let deployments: Deployment[];
  try {
    deployments = (
      await client.jobs().deployments(job.id, {
        ...(job.namespace === undefined ? {} : { namespace: job.namespace }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      })
    ).value;
  } catch (err) {
    const error = new NomadQueryError('deployments', job.id, err);
    return { message: error.message, unrecoverable: false };
  }
  const active = deployments.find((deployment) => !TERMINAL_DEPLOYMENT_STATUSES.has(deployment.Status));
  if (active === undefined) {
    return null;
  }
  const error = new DeploymentActiveError({
    deploymentId: active.ID,
    status: active.Status,
    verbose: options.verbose,
  });
  return { message: error.message, unrecoverable: false };
}
