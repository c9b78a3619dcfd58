/**
 * Scenarios for how the plan and a `-reschedule` batch's watch read the job's allocations: a
 * job of at least FILTERED_READ_MIN_ALLOCATIONS allocations through
 * `/v1/allocations?filter=JobID == "<id>"&task_states=false` (the watch still follows each
 * stopped allocation to its running replacement, the plan still plans every allocation), unless
 * `-task` or `-started-before` needs the task states; a smaller job through the job's own list.
 */

import { NomadClient } from '../../../lib/nomad/index';
import type { RestartPlan } from '../../../lib/restart/plan';
import { awaitBatch, createAwaitCursor, planRestart, restartBatch } from '../../../lib/steps/index';
import {
  FILTERED_READ_MIN_ALLOCATIONS,
  jobIdFilter,
  readJobAllocations,
} from '../../../lib/steps/kit/job-allocations-read';
import { restartOptions } from '../../fixtures/restart-options';
import { FakeNomad } from '../../nomad/helpers/fake-nomad';
import { allocJson } from '../../nomad/helpers/wire';
import { allocationsOf, type Harness, harnessPerTest, simpleJob } from '../helpers/harness';

const JOB_LIST = 'GET /v1/job/:id/allocations';
const FILTERED_LIST = 'GET /v1/allocations';

/** Plans and stops one batch of two, then watches it with `plan` adjusted by `adjust`. */
async function watchOneBatch(h: Harness, jobId: string, adjust: (plan: RestartPlan) => RestartPlan) {
  const options = restartOptions(jobId, { reschedule: true, batchSize: { value: 2, percent: false } });
  const planned = await planRestart(h.client, options, { emit: () => {}, now: h.now });
  if (planned.kind !== 'plan') throw new Error(`expected a plan, got ${planned.kind}`);
  const plan = adjust(planned);
  const stopped = await restartBatch(h.client, plan, 0, options, { emit: () => {}, now: Date.now });
  h.sim.control.resetCounters();
  const result = await awaitBatch(
    h.client,
    plan,
    0,
    createAwaitCursor(0, stopped, { now: Date.now }),
    options,
    {
      emit: () => {},
      now: Date.now,
    },
  );
  return { result, counters: h.sim.control.counters() };
}

/** The filter and task_states of every `/v1/allocations` read in the simulator's log. */
function filteredReads(h: Harness): [string | null, string | null][] {
  return h.sim.control
    .requestLog()
    .filter((entry) => entry.path === '/v1/allocations')
    .map((entry) => {
      const query = new URLSearchParams(entry.query);
      return [query.get('filter'), query.get('task_states')];
    });
}

describe('the plan’s read', () => {
  const harness = harnessPerTest();

  it('plans a large job from the filtered list without task states, every allocation in Nomad’s order', async () => {
    // Arrange
    const job = simpleJob('large', 'service', FILTERED_READ_MIN_ALLOCATIONS);
    const h = await harness.startRunning(job);
    h.sim.control.resetCounters();

    // Act
    const plan = await planRestart(
      h.client,
      restartOptions(job.ID, { batchSize: { value: 400, percent: false } }),
      {
        emit: () => {},
        now: h.now,
      },
    );

    // Assert
    if (plan.kind !== 'plan') throw new Error(`expected a plan, got ${plan.kind}`);
    expect(filteredReads(h)).toEqual([['JobID == "large"', 'false']]);
    expect(h.sim.control.counters()[JOB_LIST]).toBeUndefined();
    const newestFirst = allocationsOf(h, job.ID)
      .sort((a, b) => b.CreateIndex - a.CreateIndex || a.ID.localeCompare(b.ID))
      .map((a) => a.ID);
    expect(plan.batches.map((batch) => batch.length)).toEqual([400, 400, 200]);
    expect(plan.batches.flat().map((a) => a.id)).toEqual(newestFirst);
  });

  it('reads the task states of a large job when -task needs them', async () => {
    // Arrange
    const job = simpleJob('large-task', 'service', FILTERED_READ_MIN_ALLOCATIONS);
    const h = await harness.startRunning(job);
    h.sim.control.resetCounters();

    // Act
    const plan = await planRestart(h.client, restartOptions(job.ID, { tasks: ['task1'] }), {
      emit: () => {},
      now: h.now,
    });

    // Assert
    expect(plan.kind).toBe('plan');
    expect(filteredReads(h)).toEqual([]);
    expect(h.sim.control.counters()[JOB_LIST]).toBe(1);
  });
});

describe('the plan’s read with -started-before', () => {
  const harness = harnessPerTest();

  it('reads the task states of a large job, since each task’s StartedAt decides', async () => {
    // Arrange
    const job = simpleJob('large-started-before', 'service', FILTERED_READ_MIN_ALLOCATIONS);
    const h = await harness.startRunning(job);
    h.sim.control.resetCounters();

    // Act: every task started before this time, so every allocation is stale.
    const plan = await planRestart(h.client, restartOptions(job.ID, { startedBefore: h.now() + 1 }), {
      emit: () => {},
      now: h.now,
    });

    // Assert
    if (plan.kind !== 'plan') throw new Error(`expected a plan, got ${plan.kind}`);
    expect(plan.counts.eligible).toBe(FILTERED_READ_MIN_ALLOCATIONS);
    expect(filteredReads(h)).toEqual([]);
    expect(h.sim.control.counters()[JOB_LIST]).toBe(1);
  });
});

describe('the batch watch’s read', () => {
  const harness = harnessPerTest();

  it('watches a large job through the filtered list without task states, to the running replacements', async () => {
    // Arrange: two allocations stand for a large job: the plan says it listed the threshold.
    const job = simpleJob('large', 'service', 2);
    const h = await harness.startRunning(job);

    // Act
    const { result, counters } = await watchOneBatch(h, job.ID, (plan) => ({
      ...plan,
      counts: { ...plan.counts, listed: FILTERED_READ_MIN_ALLOCATIONS },
    }));

    // Assert
    expect(result.done).toBe(true);
    expect(result.outcomes.map((o) => o.status)).toEqual(['replaced', 'replaced']);
    expect(counters[JOB_LIST]).toBeUndefined();
    expect(counters[FILTERED_LIST]).toBeGreaterThanOrEqual(1);
    expect(new Set(filteredReads(h).map((read) => JSON.stringify(read)))).toEqual(
      new Set([JSON.stringify(['JobID == "large"', 'false'])]),
    );
  });

  it('watches a smaller job through its own list, as before', async () => {
    // Arrange
    const job = simpleJob('small', 'service', 2);
    const h = await harness.startRunning(job);

    // Act
    const { result, counters } = await watchOneBatch(h, job.ID, (plan) => plan);

    // Assert
    expect(result.outcomes.map((o) => o.status)).toEqual(['replaced', 'replaced']);
    expect(counters[FILTERED_LIST]).toBeUndefined();
    expect(counters[JOB_LIST]).toBeGreaterThanOrEqual(1);
  });

  it.each([
    { jobId: 'web', filter: 'JobID == "web"' },
    { jobId: 'batch/2024-01-01', filter: 'JobID == "batch/2024-01-01"' },
    // go-bexpr refuses `"a\"b"` on a real agent: such a job is watched through its own list.
    { jobId: 'a"b', filter: undefined },
    { jobId: 'a\\b', filter: undefined },
  ])('writes the filter of job $jobId as $filter', ({ jobId, filter }) => {
    expect(jobIdFilter(jobId)).toBe(filter);
  });

  it('keeps only the job’s allocations when a Nomad too old for filter lists the whole namespace', async () => {
    // Arrange: the answer of a Nomad that ignores `filter`.
    const nomad = await FakeNomad.start();
    const client = NomadClient.create({ address: nomad.address });
    nomad.enqueue({
      body: [
        allocJson({ ID: 'a1', JobID: 'web', TaskStates: null }),
        allocJson({ ID: 'b1', JobID: 'web-canary', TaskStates: null }),
      ],
    });
    try {
      // Act
      const listed = await readJobAllocations(client, 'web', true, {});

      // Assert
      expect(nomad.requests[0]?.query.get('filter')).toBe('JobID == "web"');
      expect(listed.value.map((stub) => stub.ID)).toEqual(['a1']);
    } finally {
      await client.close();
      await nomad.stop();
    }
  });
});
