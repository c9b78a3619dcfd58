/**
 * Scenario: unattended runs through the synthesized workflow, the local engine and the real
 * handlers, against the simulator. A scheduled run's maintenance window ends between two batches
 * (the steps' clock is simulated and jumps past the end while the first batch settles): the run
 * stops at the next safe point as `StoppedAtWindowEnd`, with the allocations done and left, and
 * never starts the next batch. A scheduled run that finds the job locked by a running run ends as
 * `SkippedJobLocked` without touching the job; a console run in the same spot still fails.
 */

import type { InvocationInterceptor } from '../../../lib/engines/local/engine';
import type { RunSummary } from '../../../lib/restart/run-summary';
import { localStores } from '../../../lib/stores/from-env';
import { FlowStates, TaskStates } from '../../../lib/workflow/state-names';
import {
  allocationsOf,
  eventsOf,
  type Harness,
  harnessPerTest,
  restartedTasks,
  simpleJob,
} from '../../steps/helpers/harness';
import { freeJob, holdJob, runWorkflowInput } from './helpers/workflow-harness';

const KEY = { namespace: 'default', jobId: 'web' };
const HOLDER = 'arn:aws:states:local:000000000000:execution:NomadRestart-Restart:nightly-by-hand';
const SCHEDULED = '2026-11-29T02:00:00.000Z';
const RESTARTS = 'PUT /v1/client/allocation/:id/restart';

const harness = harnessPerTest();
afterEach(async () => {
  await freeJob(KEY, HOLDER);
});

async function cluster(count: number): Promise<Harness> {
  return await harness.startRunning(simpleJob('web', 'service', count));
}

/** A clock at the scheduled time that jumps `jumpMs` ahead once the `afterDecides`-th Decide has run. */
function clockJumping(afterDecides: number, jumpMs: number) {
  let now = Date.parse(SCHEDULED);
  let decides = 0;
  const intercept: InvocationInterceptor = async (state, invoke) => {
    const result = await invoke();
    if (state === TaskStates.decide && ++decides === afterDecides) now += jumpMs;
    return result;
  };
  return { now: () => now, intercept };
}

const scheduledInput = (extra: Record<string, unknown> = {}) => ({
  job: 'web',
  batchSize: '2',
  yes: true,
  trigger: 'schedule' as const,
  scheduleName: 'weekly-web',
  scheduledTime: SCHEDULED,
  ...extra,
});

describe('maintenance window', () => {
  it('stops between batches once the window has ended, with the allocations done and left', async () => {
    // Arrange: 5 allocations, 2 per batch; the window is 1h and 2h pass during the first batch.
    const target = await cluster(5);
    const clock = clockJumping(1, 2 * 3600_000);

    // Act
    const run = await runWorkflowInput(target, scheduledInput({ windowDuration: '1h' }), {
      now: clock.now,
      interceptInvocation: clock.intercept,
    });

    // Assert
    expect(run.result.status).toBe('SUCCEEDED');
    expect(run.exitCode).toBe(0);
    expect(run.entered.filter((s) => s === TaskStates.restartBatch)).toHaveLength(1);
    expect(run.entered.at(-1)).toBe(FlowStates.stoppedAtWindowEnd);
    expect(target.sim.control.counters()[RESTARTS]).toBe(2);
    expect(eventsOf(run.events, 'window-ended')).toEqual([
      expect.objectContaining({ windowEnd: Date.parse('2026-11-29T03:00:00Z'), done: 2, left: 3 }),
    ]);
    const summary = run.result.output as RunSummary;
    expect(summary).toMatchObject({
      outcome: 'stopped-at-window-end',
      jobId: 'web',
      allocations: { mode: 'restart', planned: 5, restarted: 2, failed: 0, notReached: 3 },
      window: { end: '2026-11-29T03:00:00.000Z', reached: true },
      schedule: { name: 'weekly-web', scheduledTime: SCHEDULED },
      errorText: '',
    });
    expect(summary.lines).toContain(
      'Maintenance window: ended 2026-11-29T03:00:00.000Z, 2 of 5 allocations done, 3 left',
    );
    expect(localStores.lock.holder(KEY)).toBeUndefined();
  });

  it('starts no batch at all when the window has already ended', async () => {
    // Arrange: a flexible window started the run after the maintenance window's end.
    const target = await cluster(3);
    const clock = clockJumping(0, 0);

    // Act
    const run = await runWorkflowInput(target, scheduledInput({ windowEnd: '2026-11-29T01:59:59Z' }), {
      now: clock.now,
    });

    // Assert
    expect(run.entered.at(-1)).toBe(FlowStates.stoppedAtWindowEnd);
    expect(run.entered).not.toContain(TaskStates.restartBatch);
    expect(target.sim.control.counters()[RESTARTS]).toBeUndefined();
    expect(run.result.output).toMatchObject({
      outcome: 'stopped-at-window-end',
      allocations: { planned: 3, restarted: 0, notReached: 3 },
    });
  });

  it('runs every batch when the window lasts', async () => {
    // Arrange
    const target = await cluster(3);
    const clock = clockJumping(1, 60_000);

    // Act
    const run = await runWorkflowInput(target, scheduledInput({ windowDuration: '1h' }), {
      now: clock.now,
      interceptInvocation: clock.intercept,
    });

    // Assert
    expect(run.entered.at(-1)).toBe(FlowStates.restartFinished);
    expect(target.sim.control.counters()[RESTARTS]).toBe(3);
    expect(run.result.output).toMatchObject({
      outcome: 'succeeded',
      window: { end: '2026-11-29T03:00:00.000Z', reached: false },
    });
  });
});

describe('resumeNextWindow', () => {
  it("leaves what a stopped run did not reach to the schedule's next run, then starts over", async () => {
    // Arrange: 5 allocations, 2 per batch; the first window ends after the first batch.
    const target = await cluster(5);
    const input = scheduledInput({ windowDuration: '1h', resumeNextWindow: true });
    const nextWeek = { ...input, scheduledTime: '2026-12-06T02:00:00.000Z' };
    const first = clockJumping(1, 2 * 3600_000);

    // Act
    const stopped = await runWorkflowInput(target, input, {
      now: first.now,
      interceptInvocation: first.intercept,
    });
    const resumed = await runWorkflowInput(target, nextWeek, {
      now: () => Date.parse(nextWeek.scheduledTime),
    });
    const afterwards = target.sim.control.counters()[RESTARTS];
    const fresh = await runWorkflowInput(target, nextWeek, { now: () => Date.parse(nextWeek.scheduledTime) });

    // Assert
    expect(stopped.result.output).toMatchObject({
      outcome: 'stopped-at-window-end',
      allocations: { restarted: 2 },
    });
    expect(resumed.result.output).toMatchObject({
      outcome: 'succeeded',
      allocations: { planned: 3, restarted: 3, skipped: { alreadyRestarted: 2 } },
    });
    expect((resumed.result.output as RunSummary).lines).toContain(
      'Skipped: 2 already restarted by an earlier run',
    );
    expect(afterwards).toBe(5);
    expect(restartedTasks(allocationsOf(target, 'web'))).toHaveLength(5);
    expect(fresh.result.output).toMatchObject({
      outcome: 'succeeded',
      allocations: { planned: 5, skipped: {} },
    });
    expect(target.sim.control.counters()[RESTARTS]).toBe(10);
  });
});

describe('overlap', () => {
  it('skips a scheduled run while another run holds the lock, naming it, and touches nothing', async () => {
    // Arrange
    const target = await cluster(2);
    await holdJob(KEY, HOLDER);

    // Act
    const run = await runWorkflowInput(target, scheduledInput());

    // Assert
    expect(run.result.status).toBe('SUCCEEDED');
    expect(run.exitCode).toBe(0);
    expect(run.entered.at(-1)).toBe(FlowStates.skippedJobLocked);
    expect(run.entered).not.toContain(TaskStates.checkDeployments);
    expect(target.sim.control.counters()[RESTARTS]).toBeUndefined();
    // Its only line: none of a plan it does not carry out; then its end (a run-level event, no line).
    expect(run.events).toEqual([
      expect.objectContaining({ type: 'skipped-job-locked', jobId: 'web', holder: HOLDER }),
      expect.objectContaining({ type: 'run-ended', outcome: 'skipped-job-locked' }),
    ]);
    const summary = run.result.output as RunSummary;
    expect(summary).toMatchObject({
      outcome: 'skipped-job-locked',
      lockedBy: HOLDER,
      allocations: { planned: 2, restarted: 0 },
    });
    expect(summary.lines[0]).toBe(
      `Restart of job "web" in namespace "default": skipped, the job is already being restarted by execution "${HOLDER}"`,
    );
    expect(localStores.lock.holder(KEY)).toBe(HOLDER);
  });

  it('still fails a run without the schedule trigger as JobLocked', async () => {
    // Arrange
    const target = await cluster(2);
    await holdJob(KEY, HOLDER);

    // Act
    const run = await runWorkflowInput(target, { job: 'web', yes: true });

    // Assert
    expect(run.result).toMatchObject({ status: 'FAILED', error: 'JobLocked' });
    expect(run.events).toEqual([]);
    expect(localStores.lock.holder(KEY)).toBe(HOLDER);
  });
});
