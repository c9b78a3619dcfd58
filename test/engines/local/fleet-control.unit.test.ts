/**
 * A local fleet's run-control state: a pause holds the next job until one decision, a stop starts
 * no further job, one decision ends a pause, and the fleet's pauses are told from a job's own.
 */
import type { ControlRequest, ControlVerb } from '../../../lib/control/requests';
import { FleetControl } from '../../../lib/engines/local/fleet-control';

const request = (verb: ControlVerb, at: number): ControlRequest => ({
  verb,
  requestedBy: 'alice@laptop',
  via: 'terminal',
  at,
});

/** Whether `promise` settled by now (after the microtasks queued before). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('FleetControl', () => {
  it('lets a job start while running, holds it while paused, and lets it start once resumed', async () => {
    // Arrange
    const control = new FleetControl();
    expect(await control.mayStartJob()).toBe(true);

    // Act
    expect(control.record(request('pause', 1))).toMatchObject({ kind: 'paused' });
    const start = control.mayStartJob();
    const heldWhilePaused = !(await settled(start));
    const resumed = control.record(request('resume', 2));

    // Assert
    expect(heldWhilePaused).toBe(true);
    expect(resumed).toMatchObject({ kind: 'resumed' });
    expect(await start).toBe(true);
  });

  it('starts no further job once stopped, also one that waited on a pause', async () => {
    // Arrange
    const control = new FleetControl();
    control.record(request('pause', 1));
    const waiting = control.mayStartJob();

    // Act
    const stopped = control.record(request('stop', 2));

    // Assert
    expect(stopped).toMatchObject({ kind: 'stopped', request: request('stop', 2) });
    expect(await waiting).toBe(false);
    expect(await control.mayStartJob()).toBe(false);
    expect(control.stoppedBy).toEqual(request('stop', 2));
  });

  it("makes one decision for the fleet's pause, resolved by the request that decides it", async () => {
    // Arrange
    const control = new FleetControl();
    control.record(request('pause', 1));
    const decided = control.decision();

    // Act
    const openBefore = decided !== undefined && !(await settled(decided));
    control.record(request('resume', 2));

    // Assert
    expect(openBefore).toBe(true);
    expect(await decided).toBe('resume');
    expect(control.decision()).toBeUndefined();
  });

  it("tells the fleet's pauses, also decided ones, from a job's own pause", () => {
    // Arrange
    const control = new FleetControl();
    const first = request('pause', 1);
    control.record(first);
    control.record(request('resume', 2));
    const second = request('pause', 3);
    control.record(second);
    control.record(request('stop', 4));

    // Act
    const fleets = [control.isFleetPause({ ...first }), control.isFleetPause(second)];
    const jobsOwn = control.isFleetPause({ ...first, requestedBy: 'U0AAAAAAA', via: 'slack' });

    // Assert
    expect(fleets).toEqual([true, true]);
    expect(jobsOwn).toBe(false);
  });

  it('ignores a pause of a paused fleet, a resume of a running one, and anything after a stop', () => {
    // Arrange
    const control = new FleetControl();

    // Act
    const resumeRunning = control.record(request('resume', 1));
    control.record(request('pause', 2));
    const pauseAgain = control.record(request('pause', 3));
    control.record(request('stop', 4));
    const afterStop = control.record(request('resume', 5));

    // Assert
    expect(resumeRunning).toEqual({ kind: 'ignored', reason: 'the fleet is not paused' });
    expect(pauseAgain).toEqual({ kind: 'ignored', reason: 'the fleet is paused already' });
    expect(afterStop).toEqual({ kind: 'ignored', reason: 'the fleet is being stopped' });
    expect(control.pausedBy).toBeUndefined();
  });
});
