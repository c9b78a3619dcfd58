/**
 * Scenarios for the health wait's slices (`awaitHealth`), called directly against the simulator:
 * the `Still waiting` line per interval with the reason, then the deadline error; a slice that
 * returns a cursor before its Lambda deadline and a resumed slice that keeps the
 * `-min-healthy-time` count; an allocation without Nomad checks judged on its tasks; and one
 * that vanished (garbage-collected) reported, not waited on.
 */
import type { RestartOptions } from '../../../lib/restart/options';
import type { RestartPlan } from '../../../lib/restart/plan';
import { checkPollMs } from '../../../lib/steps/health/health-cursor';
import {
  type AllocationOutcome,
  awaitHealth,
  createHealthCursor,
  healthOutcomes,
  planRestart,
  restartBatch,
} from '../../../lib/steps/index';
import { restartOptions } from '../../fixtures/restart-options';
import { eventsOf, type Harness, harnessPerTest, recorder, simpleJob } from '../helpers/harness';
import { checkedJob } from './helpers/health-fixtures';

const harness = harnessPerTest();

/** Plans and restarts the job's only batch; returns what the health wait starts from. */
async function restarted(target: Harness, options: RestartOptions) {
  const plan = await planRestart(target.client, options, { emit: () => {}, now: Date.now });
  if (plan.kind !== 'plan') throw new Error(`expected a plan, got ${plan.kind}`);
  const startedAt = Date.now();
  const outcomes = await restartBatch(target.client, plan, 0, options, { emit: () => {}, now: Date.now });
  return { plan: plan as RestartPlan, outcomes, startedAt };
}

/** A one-allocation job whose `http` check never passes again, restarted with `gate`. */
async function restartedNeverPassing(
  jobId: string,
  gate: { minHealthyTimeNs: number; healthyDeadlineNs: number },
) {
  const job = checkedJob(jobId, 1);
  const h = await harness.startRunning(job);
  h.sim.control.setCheckBehaviour({ jobId }, 'http', { behaviour: 'never-passing' });
  return { h, ...(await restarted(h, restartOptions(jobId, { waitHealthy: gate }))) };
}

/**
 * A clock for the gate that moves 50 ms each time the gate reads it and never on its own: what the
 * gate decides by its clock (the checks it reads, its lines, its deadline) then follows from what
 * it did, not from how fast a loaded machine ran it. `peek` reads it without moving it.
 */
function steppingClock() {
  let at = Date.now();
  return {
    now: () => {
      at += 50;
      return at;
    },
    peek: () => at,
  };
}

const failedMessages = (outcomes: AllocationOutcome[]) =>
  outcomes.flatMap((o) => (o.status === 'failed' ? o.errors.map((e) => e.message) : []));

describe('awaitHealth', () => {
  it('says "still waiting" per interval with the reason, then fails the allocation at -healthy-deadline', async () => {
    // Arrange: a check that fails from now on.
    const gate = { minHealthyTimeNs: 50e6, healthyDeadlineNs: 450e6 };
    const { h, plan, outcomes, startedAt } = await restartedNeverPassing('sick', gate);
    const clock = steppingClock();
    const cursor = createHealthCursor(0, outcomes, {
      now: clock.now(),
      restartedSinceMs: startedAt - 5_000,
      stillWaitingIntervalMs: 100,
    });
    const { events, emit } = recorder();

    // Act
    const result = await awaitHealth(h.client, plan, cursor, gate, false, {
      emit,
      now: clock.now,
      stillWaitingIntervalMs: 100,
    });

    // Assert
    const id = outcomes[0]?.allocationId ?? '';
    expect(result.done).toBe(true);
    // At most one line per 100 ms of the gate's clock before its 450 ms deadline, at least one
    // each time the gate wakes past one: its clock moves 50 ms a read and a wake reads it a few
    // times, so a wake skips at most one line (a wall clock lost more to a stalled loop).
    const lines = eventsOf(events, 'health-still-waiting');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.length).toBeLessThanOrEqual(4);
    expect(lines.slice(1).filter((line, i) => line.time - (lines[i]?.time ?? 0) < 100)).toEqual([]);
    // Before the check's first run since the restart the reason says so (seen under load), then
    // the failure; nothing else.
    const failing = `${id} check "http" is "failure": Internal Server Error`;
    const notRunYet = `${id} check "http" has not run since the task started`;
    const reasons = lines.map((e) => `${e.allocationId} ${e.reason}`);
    expect(reasons.at(-1)).toBe(failing);
    expect(reasons.filter((r) => r !== failing && r !== notRunYet)).toEqual([]);
    expect(failedMessages(healthOutcomes(result.cursor))).toEqual([
      `Error restarting allocation "${id.slice(0, 8)}": Allocation "${id.slice(0, 8)}" did not become healthy within 450ms: check "http" is "failure": Internal Server Error`,
    ]);
  });

  it('returns a cursor before its deadline, and a resumed slice keeps the -min-healthy-time count', async () => {
    // Arrange: healthy as soon as the check runs again (every 200 ms real), for 800 ms.
    const job = checkedJob('slow', 1, { intervalS: 20 });
    const h = await harness.startRunning(job);
    const gate = { minHealthyTimeNs: 800e6, healthyDeadlineNs: 20e9 };
    const options = restartOptions(job.ID, { waitHealthy: gate });
    const { plan, outcomes, startedAt } = await restarted(h, options);
    const cursor = createHealthCursor(0, outcomes, { now: Date.now(), restartedSinceMs: startedAt - 5_000 });
    const { events, emit } = recorder();

    // Act: a first slice cut short while the count runs, then a resumed one from the JSON cursor.
    const first = await awaitHealth(h.client, plan, cursor, gate, false, {
      emit,
      now: Date.now,
      deadlineMs: Date.now() + 900,
    });
    const resumedAt = Date.now();
    const resumed = await awaitHealth(h.client, plan, JSON.parse(JSON.stringify(first.cursor)), gate, false, {
      emit,
      now: Date.now,
    });

    // Assert
    const since = first.cursor.watching[0]?.passingSince ?? Infinity;
    const [healthy] = eventsOf(events, 'allocation-healthy');
    expect(first.done).toBe(false);
    expect(since).toBeLessThan(resumedAt);
    expect(first.cursor.allocationsIndex).toBeGreaterThan(0);
    expect(resumed.done).toBe(true);
    expect(healthy?.time).toBeGreaterThanOrEqual(since + 800);
    // Counted from before the cut, not from the resumed slice's start.
    expect((healthy?.time ?? 0) - resumedAt).toBeLessThan(800);
    expect(healthOutcomes(resumed.cursor).map((o) => o.status)).toEqual(['restarted']);
  });

  it('judges an allocation without Nomad checks on its tasks, reading the checks once', async () => {
    // Arrange
    const job = simpleJob('plain', 'service', 1);
    const h = await harness.startRunning(job);
    const gate = { minHealthyTimeNs: 300e6, healthyDeadlineNs: 10e9 };
    const options = restartOptions(job.ID, { verbose: true, waitHealthy: gate });
    const { plan, outcomes, startedAt } = await restarted(h, options);
    const cursor = createHealthCursor(0, outcomes, { now: Date.now(), restartedSinceMs: startedAt - 5_000 });
    const { events, emit } = recorder();

    // Act
    const result = await awaitHealth(h.client, plan, cursor, gate, true, { emit, now: Date.now });

    // Assert
    const id = outcomes[0]?.allocationId ?? '';
    expect(result.done).toBe(true);
    expect(events.map((e) => e.type)).toEqual(['health-no-checks', 'allocation-healthy']);
    expect(eventsOf(events, 'allocation-healthy')).toEqual([
      expect.objectContaining({ allocationId: id, checks: 0 }),
    ]);
    expect(h.sim.control.counters()['GET /v1/client/allocation/:id/checks']).toBe(1);
  });

  it('reports an allocation garbage-collected while awaited, instead of waiting on it', async () => {
    // Arrange
    const job = checkedJob('gone', 1);
    const h = await harness.startRunning(job);
    const gate = { minHealthyTimeNs: 300e6, healthyDeadlineNs: 10e9 };
    const options = restartOptions(job.ID, { waitHealthy: gate });
    const { plan, outcomes } = await restarted(h, options);
    const id = outcomes[0]?.allocationId ?? '';
    h.sim.control.garbageCollect(id);

    // Act
    const result = await awaitHealth(
      h.client,
      plan,
      createHealthCursor(0, outcomes, { now: Date.now() }),
      gate,
      false,
      {
        emit: () => {},
        now: Date.now,
      },
    );

    // Assert
    expect(result.done).toBe(true);
    expect(failedMessages(healthOutcomes(result.cursor))).toEqual([
      `Error restarting allocation "${id.slice(0, 8)}": Allocation "${id.slice(0, 8)}" disappeared while waiting for it to become healthy`,
    ]);
  });

  it("reads an allocation's checks at most once per poll interval of its own clock", async () => {
    // Arrange: a check that never passes, so the gate keeps polling until its deadline, on a
    // stepping clock: when a checks request arrives at the simulator, the clock still reads what
    // the gate read when it sent it, so the spacing below is the gate's decision.
    const gate = { minHealthyTimeNs: 300e6, healthyDeadlineNs: 2_000e6 };
    const { h, plan, outcomes } = await restartedNeverPassing('polled', gate);
    const clock = steppingClock();
    const readAt: number[] = [];
    // Each trigger fires once; the next one, armed while this request is matched, counts it as its
    // first and fires on the request after.
    const recordReads = (target: Harness, nth: number) =>
      target.sim.control.onRequest({ pathSuffix: '/checks', nth }, () => {
        readAt.push(clock.peek());
        recordReads(target, 2);
      });
    recordReads(h, 1);

    const cursor = createHealthCursor(0, outcomes, { now: clock.now() });

    // Act
    const result = await awaitHealth(h.client, plan, cursor, gate, false, { emit: () => {}, now: clock.now });

    // Assert
    expect(result.done).toBe(true);
    expect(readAt.length).toBeGreaterThanOrEqual(3);
    const gaps = readAt.slice(1).map((at, i) => at - (readAt[i] ?? 0));
    expect(gaps.filter((gap) => gap < checkPollMs(gate.minHealthyTimeNs))).toEqual([]);
  });
});
