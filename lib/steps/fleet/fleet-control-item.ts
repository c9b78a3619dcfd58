/**
 * A fleet run's run-control item (docs/run-control.md, "A fleet"): "Plan fleet" takes it, so a
 * request for the fleet can be recorded while it runs (`JobLock.requestControl` refuses one for a
 * run that holds nothing), and "Summarize fleet" gives it back at the fleet's end.
 */
import { describeRequester } from '../../control/requests';
import { fleetControlKey } from '../../stores/fleet-control-key';
import type { JobLock } from '../../stores/job-lock';

/**
 * How long the item outlives its last renewal: a Standard execution's longest life (a year), as
 * nothing renews it while the fleet runs. A fleet that dies outside its summary (aborted) leaves
 * it to this TTL: a request recorded on it then reaches no job (every job of the fleet ended).
 * (https://docs.aws.amazon.com/step-functions/latest/dg/service-quotas.html)
 */
export const FLEET_CONTROL_TTL_SECONDS = 366 * 24 * 60 * 60;

/** Takes the fleet's item for its run (a retried plan takes it again, as its holder). */
export async function holdFleetControl(lock: JobLock, fleetRunId: string): Promise<void> {
  await lock.acquire(fleetControlKey(fleetRunId), {
    owner: fleetRunId,
    ttlSeconds: FLEET_CONTROL_TTL_SECONDS,
  });
}

/** Gives the fleet's item back (nothing when it holds none: a retried summary). */
export async function releaseFleetControl(lock: JobLock, fleetRunId: string): Promise<void> {
  await lock.release(fleetControlKey(fleetRunId), fleetRunId);
}

/**
 * Who stopped the fleet with a `stop` request recorded on its item (lib/approvals/fleet-control.ts
 * records it there on AWS), worded as a job's record words it; `undefined` when none did.
 */
export async function fleetStoppedBy(lock: JobLock, fleetRunId: string): Promise<string | undefined> {
  const request = await lock.controlRequest(fleetControlKey(fleetRunId), fleetRunId);
  return request?.verb === 'stop' ? describeRequester(request) : undefined;
}
