/**
 * A fleet's part of a job's safe point (docs/run-control.md, "A fleet"): a job run a fleet started
 * also obeys the fleet's request, recorded once for the whole fleet (lib/stores/fleet-control-key.ts),
 * so no job starts a batch while its fleet is paused, and the Map's `-max-jobs` slots, held by
 * paused jobs, start no further job. The job's own request comes first (it is the newer word for
 * that job); the fleet's is never cleared by a job (it is every job's until the fleet decides).
 */
import type { ControlRequest } from '../../control/requests';
import type { RestartOptions } from '../../restart/options';

/** Reads the request recorded for a fleet run (the engine's own lock: a fleet has no Nomad variable). */
export interface FleetRequestReader {
  fleetControlRequest(fleetRunId: string): Promise<ControlRequest | undefined>;
}

/**
 * The fleet's `pause` or `stop` for a job run, when a fleet started it (`options.fleet`);
 * `undefined` for a run of its own, and for a fleet running on: its last word a `resume` (which
 * reaches each parked job as the answer to its pause question) or none.
 */
export async function fleetControlRequest(
  lock: FleetRequestReader,
  options: Pick<RestartOptions, 'fleet'>,
): Promise<ControlRequest | undefined> {
  if (options.fleet === undefined) return undefined;
  const request = await lock.fleetControlRequest(options.fleet.runId);
  return request?.verb === 'resume' ? undefined : request;
}
