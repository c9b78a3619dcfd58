/**
 * Where a fleet run's run-control request is recorded on AWS (docs/run-control.md, "A fleet"): an
 * item of the lock table held by the fleet run itself, so a request for a fleet that has ended is
 * refused as for a job's run (`JobLock.requestControl` answers `false`). Its key never names a
 * job: a job's is `<namespace>/<job>` with a non-empty namespace, a fleet's starts with `/`.
 */
import type { LockKey } from './job-lock';

/** The lock table's key of the fleet run `fleetRunId` (its execution's name): `/fleet/<id>`. */
export function fleetControlKey(fleetRunId: string): LockKey {
  return { namespace: '', jobId: `fleet/${fleetRunId}` };
}

/** Whether `key`, held by run `runId`, is that fleet run's item (the run ID is then a fleet's). */
export function isFleetControlKey(key: LockKey, runId: string): boolean {
  const fleet = fleetControlKey(runId);
  return key.namespace === fleet.namespace && key.jobId === fleet.jobId;
}
