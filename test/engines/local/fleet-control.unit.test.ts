/**
 * A local fleet's run-control state: a pause holds the next job until one decision, a stop starts
 * no further job, and the one decision answers every job parked on the fleet's pause.
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

  it("answers every job parked on the fleet's pause with the one decision, and no other pause", async () => {
    // Arrange
    const control = new FleetControl();
    const pause = request('pause', 1);
    control.record(pause);

    // Act
    const first = control.decisionFor(pause);
    const second = control.decisionFor({ ...pause });
    const jobsOwn = control.decisionFor(request('pause', 7));
    control.record(request('resume', 2));

    // Assert
    expect(jobsOwn).toBeUndefined();
    expect(await first).toBe('resume');
    expect(await second).toBe('resume');
  });

  it('answers a job that parks on a pause decided already with that decision', async () => {
    // Arrange
    const control = new FleetControl();
    const resumedPause = request('pause', 1);
    control.record(resumedPause);
    control.record(request('resume', 2));
    const stoppedPause = request('pause', 3);
    control.record(stoppedPause);
    control.record(request('stop', 4));

    // Act
    const late = [control.decisionFor(resumedPause), control.decisionFor(stoppedPause)];

    // Assert
    expect(await Promise.all(late)).toEqual(['resume', 'stop']);
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
