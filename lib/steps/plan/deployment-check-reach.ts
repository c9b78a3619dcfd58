/**
 * The deployment check's read of one job from where the Nomad-calling functions run (`nomad-restart
 * check -job`): the plan function, with its VPC placement, token and TLS secrets and Consul
 * settings, reads the job and its allocations, and, when the job declares Consul services, the
 * checks of the first one, as a `-wait-healthy` run would. Reads only: no write, no lock, no plan
 * stored. A Nomad or Consul error is the report's, not the step's: the check execution goes on to
 * its question, and `nomad-restart check` prints what the function saw.
 *
 * This module has no CDK import: the plan Lambda bundles it.
 */
import { ConsulError } from '../../consul/errors';
import type { NomadClient } from '../../nomad/client';
import { NomadError } from '../../nomad/errors';
import type { ConsulChecksReader } from '../../restart/health/consul-health';
import type { ReachTarget } from '../../workflow/deployment-check';
import type { NomadReach, ReachError, ReachReport } from '../../workflow/deployment-check-reach';
import { consulServiceNames } from '../health/consul-declared';

/** What {@link reachFromDeployment} reads with. */
export interface ReachDeps {
  readonly nomad: NomadClient;
  readonly consul: ConsulChecksReader;
}

function reachError(error: unknown): ReachError {
  if (error instanceof NomadError || error instanceof ConsulError) {
    const status =
      'statusCode' in error && typeof error.statusCode === 'number' ? { statusCode: error.statusCode } : {};
    return { name: error.name, message: error.message, ...status };
  }
  // Anything else (a bug, a secret that cannot be read) fails the step: the state machine says so.
  throw error;
}

/** Reads `target` from this function's Nomad (and Consul), and says what each answered. */
export async function reachFromDeployment(deps: ReachDeps, target: ReachTarget): Promise<ReachReport> {
  const nomadAddress = deps.nomad.config.address;
  const client = target.namespace === undefined ? deps.nomad : deps.nomad.withNamespace(target.namespace);
  const jobs = client.jobs();
  let nomad: NomadReach;
  let services: string[];
  try {
    const job = (await jobs.info(target.job)).value;
    const allocations = (await jobs.allocations(target.job)).value;
    nomad = {
      reached: true,
      job: job.ID,
      namespace: job.Namespace ?? target.namespace ?? 'default',
      type: job.Type ?? '',
      status: job.Status ?? '',
      allocations: allocations.length,
    };
    services = consulServiceNames(job.TaskGroups ?? []);
  } catch (error) {
    return { nomadAddress, nomad: { reached: false, error: reachError(error) } };
  }
  const service = services[0];
  if (service === undefined) return { nomadAddress, nomad };
  try {
    const answer = await deps.consul.serviceChecks(service);
    return { nomadAddress, nomad, consul: { reached: true, service, checks: answer.checks.length } };
  } catch (error) {
    return { nomadAddress, nomad, consul: { reached: false, service, error: reachError(error) } };
  }
}
