/**
 * How often the safe point reads the run's run-control request (lib/steps/lock/control-read.ts):
 * at most once a second, counted from the take of the job's lock. The rule alone, then through
 * the lock steps on the engine's lock in memory and a clock the test moves (no Nomad: the shared
 * lock is off, its request variable's reads are counted in run-requests.test.ts).
 */
import { NomadClient } from '../../../lib/nomad';
import {
  CONTROL_READ_INTERVAL_MS,
  controlReadAt,
  controlReadDue,
  controlReadNext,
} from '../../../lib/steps/lock/control-read';
import { createLockSteps, type LockSteps } from '../../../lib/steps/lock/lock-steps';
import { MemoryJobLock, MemoryPlanStore, PairedJobLock } from '../../../lib/stores';
import { fleetControlKey } from '../../../lib/stores/fleet-control-key';
import type { RunRef } from '../../../lib/workflow/payloads';
import type { PlannedStepInput } from '../../../lib/workflow/restart-steps';
import { restartOptions } from '../../fixtures/restart-options';
import { plannedState } from '../../lambdas/helpers/fixtures';

const KEY = { namespace: 'default', jobId: 'web' };
const T0 = Date.UTC(2026, 11, 7, 9, 0, 0);
const RUN: RunRef = { runId: 'run-1', executionId: 'run-1', executionNumber: 1 };
const STOP = { verb: 'stop', requestedBy: 'alice@laptop', via: 'terminal', at: T0 } as const;
const PAUSE = { ...STOP, verb: 'pause' } as const;

const nomad = NomadClient.create({ address: 'http://127.0.0.1:1' });
afterAll(() => nomad.close());

/** The lock steps over `own`, on a clock at `clock.now`, which the test moves. */
function lockSteps(own: MemoryJobLock, clock: { now: number }): LockSteps {
  return createLockSteps({
    nomad,
    planStore: new MemoryPlanStore(),
    now: () => clock.now,
    signal: new AbortController().signal,
    lock: new PairedJobLock(own, undefined, { required: false }),
    runs: { status: async () => 'NOT_FOUND' },
    leaseSeconds: 60,
  });
}

/** Run `run-1`, having taken the job `web` at T0 on the engine's lock `own`, and its lock steps on the test's clock. */
async function takenAtT0(own = new MemoryJobLock(() => T0), options = restartOptions('web')) {
  const clock = { now: T0 };
  const steps = lockSteps(own, clock);
  const { run } = await steps.take(input(RUN, options));
  return { own, clock, steps, run };
}

/** Run `run-1` before its second batch of three (the handlers' fixture). */
function input(run: RunRef = RUN, options = restartOptions('web')): PlannedStepInput {
  const { plan, progress } = plannedState();
  if (plan === null || progress === null) throw new Error('the fixture state is planned');
  return {
    options,
    run,
    plan: { ...plan, planKey: '' },
    progress: { ...progress, nextBatch: 1, batchesThisExecution: 1, restarted: 2 },
  };
}

describe('controlReadDue', () => {
  const read = controlReadAt(RUN, T0);

  it.each([
    { name: 'a run whose state has no read time', state: RUN, at: T0, expected: true },
    { name: 'a run whose read is due next', state: controlReadNext(read), at: T0, expected: true },
    {
      name: 'a run within the interval of its read',
      state: read,
      at: T0 + CONTROL_READ_INTERVAL_MS - 1,
      expected: false,
    },
    {
      name: 'a run the interval after its read',
      state: read,
      at: T0 + CONTROL_READ_INTERVAL_MS,
      expected: true,
    },
  ])('answers $expected for $name', ({ state, at, expected }) => {
    // Act
    const due = controlReadDue(state, at);

    // Assert: the interval is the 1 s the module's guarantee names.
    expect(CONTROL_READ_INTERVAL_MS).toBe(1000);
    expect(due).toBe(expected);
  });
});

describe('the safe point reading the run-control request', () => {
  it('counts the first read from the take of the lock: a stop waits for the interval', async () => {
    // Arrange: the run takes the job at T0; a stop is recorded for it at once.
    const { own, clock, steps, run } = await takenAtT0();
    await own.requestControl(KEY, 'run-1', STOP);

    // Act
    clock.now = T0 + 999;
    const early = await steps.guard(input(run));
    clock.now = T0 + 1000;
    const due = await steps.guard(input(run));

    // Assert: at 999 ms the run goes on unread, the stop kept; at 1 s it stops there.
    expect(run.controlReadAt).toBe(T0);
    expect(early).toEqual({ run });
    expect(due).toMatchObject({
      guard: { stopped: true },
      events: [{ type: 'stopped' }, { type: 'canceled' }],
    });
  });

  it('reads again only 1 s after its last read, whatever the safe points between', async () => {
    // Arrange: the run read at T0 + 1 s and found nothing; a pause comes right after.
    const { own, clock, steps, run: taken } = await takenAtT0();
    clock.now = T0 + 1000;
    const first = await steps.guard(input(taken));
    if (!('run' in first) || 'guard' in first) throw new Error('the run goes on past its first read');
    await own.requestControl(KEY, 'run-1', PAUSE);

    // Act
    clock.now = T0 + 1999;
    const skipped = await steps.guard(input(first.run));
    clock.now = T0 + 2000;
    const read = await steps.guard(input(first.run));

    // Assert
    expect(first.run.controlReadAt).toBe(T0 + 1000);
    expect(skipped).toEqual({ run: first.run });
    expect(read).toMatchObject({ guard: { paused: true }, decision: { action: 'ask' } });
  });

  it('reads at once at the safe point after a pause, and acts on a stop recorded meanwhile', async () => {
    // Arrange: the run parks a pause at T0 + 1 s; a stop is recorded 10 ms later.
    const { own, clock, steps, run } = await takenAtT0();
    await own.requestControl(KEY, 'run-1', PAUSE);
    clock.now = T0 + 1000;
    const paused = await steps.guard(input(run));
    if (!('guard' in paused) || paused.run === undefined) throw new Error('the run parks its pause');
    await own.requestControl(KEY, 'run-1', { ...STOP, at: T0 + 1010 });

    // Act: the run comes back from its question 20 ms after it parked it.
    clock.now = T0 + 1020;
    const back = await steps.guard(input(paused.run));

    // Assert
    expect(paused.run).not.toHaveProperty('controlReadAt');
    expect(back).toMatchObject({ guard: { stopped: true } });
  });

  it("reads a fleet's request at a fleet job's first safe point: the fleet may have paused before the job's take", async () => {
    // Arrange: fleet-9 holds its own item and is paused; its job `web` takes its lock at T0.
    const own = new MemoryJobLock(() => T0);
    const fleet = { runId: 'fleet-9', index: 1, of: 4 };
    await own.acquire(fleetControlKey(fleet.runId), { owner: fleet.runId, ttlSeconds: 3600 });
    await own.requestControl(fleetControlKey(fleet.runId), fleet.runId, PAUSE);
    const options = restartOptions('web', { fleet });
    const { steps, run } = await takenAtT0(own, options);

    // Act: its first safe point, at once.
    const first = await steps.guard(input(run, options));

    // Assert
    expect(run).not.toHaveProperty('controlReadAt');
    expect(first).toMatchObject({ guard: { paused: true } });
  });
});
