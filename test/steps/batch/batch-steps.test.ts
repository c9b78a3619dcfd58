/**
 * Scenarios for the batch steps the state machine calls one by one: a re-run of a batch
 * after a crash restarts nothing twice and stops no replacement (the idempotency rule),
 * T9 (a chain of replacements A0 → A1 → A2 is followed to the running end), the 60 s
 * "still waiting" line, `-replacement-timeout`, and a watch slice that returns a cursor
 * when its deadline nears.
 */

import type { RestartOptions } from '../../../lib/restart/options';
import type { RestartPlan } from '../../../lib/restart/plan';
import {
  type AllocationOutcome,
  awaitBatch,
  type BatchJournal,
  createAwaitCursor,
  planRestart,
  restartBatch,
} from '../../../lib/steps/index';
import { restartOptions } from '../../fixtures/restart-options';
import {
  allocationsOf,
  eventsOf,
  type Harness,
  harnessPerTest,
  recorder,
  restartedTasks,
  simpleJob,
  updatedJob,
  waitAllRunning,
} from '../helpers/harness';

const RESTART = 'PUT /v1/client/allocation/:id/restart';
const STOP = 'PUT /v1/allocation/:id/stop';

async function planOf(h: Harness, options: RestartOptions): Promise<RestartPlan> {
  const plan = await planRestart(h.client, options, { emit: () => {}, now: h.now });
  if (plan.kind !== 'plan') throw new Error(`expected a plan, got ${plan.kind}`);
  return plan;
}

describe('restartBatch', () => {
  const harness = harnessPerTest();

  it.each([
    { name: 'in place', reschedule: false, route: RESTART },
    { name: 'with -reschedule', reschedule: true, route: STOP },
  ])(
    're-runs a half-done batch without touching any allocation twice ($name)',
    async ({ reschedule, route }) => {
      // Arrange: a first run handles the batch, then "crashes" having recorded only its start.
      const job = simpleJob('rerun', 'service', 4);
      const h = await harness.startRunning(job);
      const options = restartOptions(job.ID, { reschedule, batchSize: { value: 4, percent: false } });
      const plan = await planOf(h, options);
      const journals: BatchJournal[] = [];
      await restartBatch(h.client, plan, 0, options, {
        emit: () => {},
        now: h.now,
        record: (journal) => {
          journals.push(journal);
        },
      });
      const crashed: BatchJournal = { ...(journals[0] as BatchJournal), outcomes: {} };
      const firstRun = h.sim.control.counters()[route];

      // Act
      const outcomes = await restartBatch(h.client, plan, 0, options, {
        emit: () => {},
        now: h.now,
        journal: crashed,
      });

      // Assert
      expect(firstRun).toBe(4);
      expect(h.sim.control.counters()[route]).toBe(4);
      expect(outcomes.map((o) => o.status)).toEqual(Array(4).fill(reschedule ? 'stopped' : 'restarted'));
      if (!reschedule) {
        const restarts = allocationsOf(h, job.ID).map(
          (a) => a.TaskStates?.['task1']?.Events?.filter((e) => e.Type === 'Restart Signaled').length,
        );
        expect(restarts).toEqual([1, 1, 1, 1]);
      }
    },
  );

  it('skips allocations the journal already finished and restarts the rest', async () => {
    // Arrange
    const job = simpleJob('partial', 'service', 3);
    const h = await harness.startRunning(job);
    const options = restartOptions(job.ID, { batchSize: { value: 3, percent: false } });
    const plan = await planOf(h, options);
    const [done] = plan.batches[0] ?? [];
    const journal: BatchJournal = {
      batchIndex: 0,
      startedAt: h.now(),
      outcomes: { [done?.id ?? '']: { allocationId: done?.id ?? '', group: 'group1', status: 'restarted' } },
    };

    // Act
    await restartBatch(h.client, plan, 0, options, { emit: () => {}, now: h.now, journal });

    // Assert
    expect(h.sim.control.counters()[RESTART]).toBe(2);
    expect(restartedTasks(allocationsOf(h, job.ID)).some((t) => t.startsWith(done?.id ?? '?'))).toBe(false);
  });
});

describe('awaitBatch', () => {
  const harness = harnessPerTest();

  it('follows a chain of replacements to the running end (T9)', async () => {
    // Arrange: replacements stay pending long enough for a job update to replace A1 by A2.
    const job = simpleJob('test_job_restart_monitor_replacement', 'service', 1);
    const h = await harness.startRunning(job, { allocStartMs: 20_000 });
    const options = restartOptions(job.ID, { reschedule: true, verbose: true });
    const plan = await planOf(h, options);
    const stopped = await restartBatch(h.client, plan, 0, options, { emit: () => {}, now: Date.now });
    const [a0] = allocationsOf(h, job.ID);
    await h.sim.control.waitFor((s) => Boolean(s.allocation(a0?.ID ?? '')?.NextAllocation), 5_000);
    const a1 = h.sim.control.state().allocation(a0?.ID ?? '')?.NextAllocation ?? '';
    h.sim.control.registerJob(updatedJob(job));
    await h.sim.control.waitFor((s) => Boolean(s.allocation(a1)?.NextAllocation), 5_000);
    const a2 = h.sim.control.state().allocation(a1)?.NextAllocation ?? '';
    const { events, emit } = recorder();

    // Act
    const result = await awaitBatch(
      h.client,
      plan,
      0,
      createAwaitCursor(0, stopped, { now: Date.now }),
      options,
      {
        emit,
        now: Date.now,
      },
    );

    // Assert
    expect(result.done).toBe(true);
    expect(result.outcomes).toEqual([
      { allocationId: a0?.ID, group: 'group1', status: 'replaced', replacementId: a2 },
    ]);
    expect(eventsOf(events, 'allocation-replaced').map((e) => [e.allocationId, e.replacementId])).toEqual([
      [a0?.ID, a1],
      [a1, a2],
    ]);
    expect(eventsOf(events, 'allocation-status').at(-1)).toEqual(
      expect.objectContaining({ allocationId: a2, status: 'running', verbose: false }),
    );
  });

  it('says "still waiting" per interval, then gives up at -replacement-timeout', async () => {
    // Arrange: an ineligible system-job node never gets a replacement and no blocked evaluation.
    const job = simpleJob('stuck', 'system', 1);
    const h = await harness.start({ nodes: [{ name: 'n1', id: 'node-1' }], jobs: [job] });
    await waitAllRunning(h, job.ID, 1);
    h.sim.control.setNodeEligibility('node-1', false);
    const options = restartOptions(job.ID, { reschedule: true, replacementTimeoutNs: 250e6 });
    const plan = await planOf(h, options);
    const stopped = await restartBatch(h.client, plan, 0, options, { emit: () => {}, now: Date.now });
    const { events, emit } = recorder();
    const cursor = createAwaitCursor(0, stopped, { now: Date.now, stillWaitingIntervalMs: 100 });

    // Act
    const result = await awaitBatch(h.client, plan, 0, cursor, options, {
      emit,
      now: Date.now,
      stillWaitingIntervalMs: 100,
    });

    // Assert
    const id = stopped[0]?.allocationId ?? '';
    expect(result.done).toBe(true);
    const stillWaiting = eventsOf(events, 'still-waiting').map((e) => e.allocationId);
    expect(stillWaiting.length).toBeGreaterThanOrEqual(1);
    expect(new Set(stillWaiting)).toEqual(new Set([id]));
    const outcome = result.outcomes[0] as Extract<AllocationOutcome, { status: 'failed' }>;
    expect(outcome.errors).toEqual([
      {
        message: `Error restarting allocation "${id.slice(0, 8)}": Allocation "${id.slice(0, 8)}" was not replaced within -replacement-timeout=250ms`,
        unrecoverable: false,
        allocationId: id,
      },
    ]);
  });

  it('returns a resumable cursor when its deadline nears, and finishes from it', async () => {
    // Arrange: replacements take 2 simulated minutes (1.2 s real) to start.
    const job = simpleJob('slow', 'service', 2);
    const h = await harness.startRunning(job, { allocStartMs: 120_000 });
    const options = restartOptions(job.ID, { reschedule: true, batchSize: { value: 2, percent: false } });
    const plan = await planOf(h, options);
    const stopped = await restartBatch(h.client, plan, 0, options, { emit: () => {}, now: Date.now });
    const cursor = createAwaitCursor(0, stopped, { now: Date.now });

    // Act
    const first = await awaitBatch(h.client, plan, 0, cursor, options, {
      emit: () => {},
      now: Date.now,
      deadlineMs: Date.now() + 400,
    });
    const resumed = await awaitBatch(h.client, plan, 0, JSON.parse(JSON.stringify(first.cursor)), options, {
      emit: () => {},
      now: Date.now,
    });

    // Assert
    expect(first.done).toBe(false);
    expect(first.outcomes.map((o) => o.status)).toEqual(['stopped', 'stopped']);
    expect(first.cursor.allocationsIndex).toBeGreaterThan(0);
    expect(resumed.done).toBe(true);
    expect(resumed.outcomes.map((o) => o.status)).toEqual(['replaced', 'replaced']);
  });
});
