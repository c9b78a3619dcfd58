/**
 * Scenarios for how a `-reschedule` batch's watch reads the job's allocations: a job listed
 * with at least FILTERED_WATCH_MIN_ALLOCATIONS allocations is watched through
 * `/v1/allocations?filter=JobID == "<id>"&task_states=false` (and the watch still follows each
 * stopped allocation to its running replacement); a smaller one through the job's own list.
 */
import type { RestartPlan } from '../../lib/restart/plan';
import { awaitBatch, createAwaitCursor, planRestart, restartBatch } from '../../lib/steps/index';
import { FILTERED_WATCH_MIN_ALLOCATIONS, jobIdFilter } from '../../lib/steps/watch-read';
import { type Harness, restartOptions, simpleJob, startHarness, waitAllRunning } from './harness';

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
  return { result, counters: h.sim.control.counters(), log: h.sim.control.requestLog() };
}

describe('the batch watch’s read', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('watches a large job through the filtered list without task states, to the running replacements', async () => {
    // Arrange: two allocations stand for a large job: the plan says it listed the threshold.
    const job = simpleJob('large', 'service', 2);
    h = await startHarness({ jobs: [job] });
    await waitAllRunning(h, job.ID, 2);

    // Act
    const { result, counters, log } = await watchOneBatch(h, job.ID, (plan) => ({
      ...plan,
      counts: { ...plan.counts, listed: FILTERED_WATCH_MIN_ALLOCATIONS },
    }));

    // Assert
    expect(result.done).toBe(true);
    expect(result.outcomes.map((o) => o.status)).toEqual(['replaced', 'replaced']);
    expect(counters[JOB_LIST]).toBeUndefined();
    expect(counters[FILTERED_LIST]).toBeGreaterThanOrEqual(1);
    const reads = log.filter((entry) => entry.path === '/v1/allocations');
    for (const read of reads) {
      const query = new URLSearchParams(read.query);
      expect(query.get('filter')).toBe('JobID == "large"');
      expect(query.get('task_states')).toBe('false');
    }
  });

  it('watches a smaller job through its own list, as before', async () => {
    // Arrange
    const job = simpleJob('small', 'service', 2);
    h = await startHarness({ jobs: [job] });
    await waitAllRunning(h, job.ID, 2);

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
});
