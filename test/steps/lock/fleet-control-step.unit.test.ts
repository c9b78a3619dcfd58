/**
 * A fleet's part of a job's safe point: a job run a fleet started reads the fleet's pause or stop
 * from the fleet's own lock item; a run of its own, or a fleet running on, reads nothing.
 */
import type { ControlRequest } from '../../../lib/control/requests';
import { type FleetRequestReader, fleetControlRequest } from '../../../lib/steps/lock/fleet-control-step';
import { fleetControlKey } from '../../../lib/stores/fleet-control-key';
import { MemoryJobLock } from '../../../lib/stores/job-lock';

const FLEET = { runId: 'fleet-7', index: 2, of: 4 };
const at = (verb: ControlRequest['verb'], ms: number): ControlRequest => ({
  verb,
  requestedBy: 'U0AAAAAAA',
  via: 'slack',
  at: ms,
});

/** The fleet's item held by the fleet run, read as a paired lock reads it (its own lock only). */
async function fleetHeld(): Promise<{ lock: MemoryJobLock; reader: FleetRequestReader }> {
  const lock = new MemoryJobLock();
  await lock.acquire(fleetControlKey(FLEET.runId), { owner: FLEET.runId, ttlSeconds: 3600 });
  return {
    lock,
    reader: { fleetControlRequest: (runId) => lock.controlRequest(fleetControlKey(runId), runId) },
  };
}

describe('fleetControlRequest', () => {
  it("reads the fleet's pause and stop for a job its fleet started", async () => {
    // Arrange
    const { lock, reader } = await fleetHeld();
    await lock.requestControl(fleetControlKey(FLEET.runId), FLEET.runId, at('pause', 1));

    // Act
    const paused = await fleetControlRequest(reader, { fleet: FLEET });
    await lock.requestControl(fleetControlKey(FLEET.runId), FLEET.runId, at('stop', 2));
    const stopped = await fleetControlRequest(reader, { fleet: FLEET });

    // Assert
    expect(paused).toEqual(at('pause', 1));
    expect(stopped).toEqual(at('stop', 2));
  });

  it("reads nothing for a fleet's resume, for a fleet with no request, and for a run of its own", async () => {
    // Arrange
    const { lock, reader } = await fleetHeld();
    const none = await fleetControlRequest(reader, { fleet: FLEET });
    await lock.requestControl(fleetControlKey(FLEET.runId), FLEET.runId, at('resume', 3));

    // Act
    const resumed = await fleetControlRequest(reader, { fleet: FLEET });
    const ownRun = await fleetControlRequest(reader, {});

    // Assert
    expect([none, resumed, ownRun]).toEqual([undefined, undefined, undefined]);
  });

  it("keeps a fleet's item apart from every job's, even a job named like it", async () => {
    // Arrange: job "x" of namespace "fleet" held by its own run.
    const lock = new MemoryJobLock();
    await lock.acquire({ namespace: 'fleet', jobId: 'x' }, { owner: 'job-run', ttlSeconds: 60 });

    // Act: fleet run "x" takes its own item.
    const taken = lock.acquire(fleetControlKey('x'), { owner: 'x', ttlSeconds: 60 });

    // Assert
    await expect(taken).resolves.toEqual({ key: fleetControlKey('x') });
    expect(await lock.keysHeldBy('job-run')).toEqual([{ namespace: 'fleet', jobId: 'x' }]);
  });
});
