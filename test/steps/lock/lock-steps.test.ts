/**
 * The job lock's steps on the step kit: the engine's own lock in memory (the shared lock in Nomad
 * is off: its pairing is tested in test/stores and against the simulator), a clock the test sets,
 * and a run-status source that says whether a holder still runs. Every time a step writes comes
 * from the kit's clock, not the machine's.
 */
import { NomadClient } from '../../../lib/nomad';
import type { RestartPlan } from '../../../lib/restart/plan';
import { SCHEDULE_TRIGGER } from '../../../lib/restart/window';
import { createLockSteps, type LockSteps } from '../../../lib/steps/lock/lock-steps';
import { questionLeaseSeconds } from '../../../lib/steps/lock/refresh-lock-step';
import { MemoryJobLock, MemoryPlanStore, PairedJobLock, type RunStatus } from '../../../lib/stores';
import { exitStatusOf } from '../../../lib/workflow/exit-status';
import type { PlannedStepInput } from '../../../lib/workflow/restart-steps';
import { restartOptions } from '../../fixtures/restart-options';
import { plannedState } from '../../lambdas/helpers/fixtures';

const KEY = { namespace: 'default', jobId: 'web' };
const NOW = Date.UTC(2026, 10, 27, 3, 0, 0);

const nomad = NomadClient.create({ address: 'http://127.0.0.1:1' });
afterAll(() => nomad.close());

/** The lock steps over `own`, at `NOW`, where every holder has `holderStatus`. */
function lockSteps(
  own: MemoryJobLock,
  holderStatus: RunStatus = 'NOT_FOUND',
  planStore = new MemoryPlanStore(),
): LockSteps {
  return createLockSteps({
    nomad,
    planStore,
    now: () => NOW,
    signal: new AbortController().signal,
    lock: new PairedJobLock(own, undefined, { required: false }),
    runs: { status: async () => holderStatus },
    leaseSeconds: 60,
  });
}

/** Run `runId` after its first batch of two: six allocations in three batches (the handlers' fixture). */
function input(runId: string, options = restartOptions('web')): PlannedStepInput {
  const { plan, progress } = plannedState();
  if (plan === null || progress === null) throw new Error('the fixture state is planned');
  return {
    options,
    run: { runId, executionId: runId, executionNumber: 1 },
    plan: { ...plan, planKey: '' },
    progress: { ...progress, nextBatch: 1, batchesThisExecution: 1, restarted: 2 },
  };
}

describe('LockSteps', () => {
  describe('take', () => {
    it('takes over the lock of a run no longer running, dated by the kit clock', async () => {
      // Arrange
      const own = new MemoryJobLock();
      await own.acquire(KEY, { owner: 'run-gone', ttlSeconds: 60 });

      // Act
      const out = await lockSteps(own, 'ABORTED').take(input('run-next'));

      // Assert
      expect(out).toEqual({
        outcome: 'taken-over',
        summary: null,
        // Its lease and the interval before its first run-control read both count from the take.
        run: {
          runId: 'run-next',
          executionId: 'run-next',
          executionNumber: 1,
          leaseRenewedAt: NOW,
          controlReadAt: NOW,
        },
        events: [
          // The job is the run's: its record starts (run-started), then the take-over is told.
          expect.objectContaining({
            type: 'run-started',
            time: NOW,
            runId: 'run-next',
            planned: 6,
            batches: 3,
          }),
          {
            type: 'lock-taken-over',
            time: NOW,
            jobId: 'web',
            previousRun: 'run-gone',
            previousStatus: 'ABORTED',
          },
        ],
      });
      expect(own.holder(KEY)).toBe('run-next');
    });

    it('skips a scheduled run while the holder still runs, its summary finished at the kit clock', async () => {
      // Arrange
      const own = new MemoryJobLock();
      await own.acquire(KEY, { owner: 'run-busy', ttlSeconds: 60 });
      const scheduled = input('run-late', restartOptions('web', { trigger: SCHEDULE_TRIGGER }));

      // Act
      const out = await lockSteps(own, 'RUNNING').take(scheduled);

      // Assert
      expect(out.outcome).toBe('skipped');
      expect(out.summary).toMatchObject({
        outcome: 'skipped-job-locked',
        lockedBy: 'run-busy',
        finishedAt: new Date(NOW).toISOString(),
      });
      expect(out.events).toEqual([
        { type: 'skipped-job-locked', time: NOW, jobId: 'web', holder: 'run-busy' },
        // Its only record ends at once; a skipped run restarted nothing, whatever its state counted.
        expect.objectContaining({
          type: 'run-ended',
          time: NOW,
          runId: 'run-late',
          outcome: 'skipped-job-locked',
          counts: { planned: 6, restarted: 0, failed: 0, skipped: 0, notReached: 6 },
        }),
      ]);
      expect(own.holder(KEY)).toBe('run-busy');
    });

    it('reports every planned allocation of a skipped scheduled run with startedBefore as locked', async () => {
      // Arrange: a stored plan of two allocations; one more was already fresh. No Nomad is reachable:
      // a run that restarted nothing reads nothing more.
      const own = new MemoryJobLock();
      await own.acquire(KEY, { owner: 'run-busy', ttlSeconds: 60 });
      const planStore = new MemoryPlanStore();
      const stored: RestartPlan = {
        kind: 'plan',
        job: { id: 'web', namespace: 'default', multiregion: false },
        batchSize: 1,
        batches: [
          [{ id: 'a1', group: 'g', jobId: 'web', tasks: [] }],
          [{ id: 'a2', group: 'g', jobId: 'web', tasks: [] }],
        ],
        skipped: [{ id: 'f1', reason: { kind: 'started-after', startedBefore: NOW - 60_000 } }],
        counts: { listed: 3, eligible: 2, skipped: 1, skippedBy: { alreadyFresh: 1 } },
        createdAt: NOW,
      };
      await planStore.put('runs/run-late/plan.json', stored);
      const base = input(
        'run-late',
        restartOptions('web', { trigger: SCHEDULE_TRIGGER, startedBefore: NOW - 60_000 }),
      );
      const scheduled = { ...base, plan: { ...base.plan, planKey: 'runs/run-late/plan.json' } };

      // Act
      const out = await lockSteps(own, 'RUNNING', planStore).take(scheduled);

      // Assert
      const report = {
        namespace: 'default',
        jobId: 'web',
        startedBefore: NOW - 60_000,
        checked: 3,
        restarted: 0,
        alreadyFresh: 1,
        stale: [
          { allocationId: 'a1', why: 'locked' },
          { allocationId: 'a2', why: 'locked' },
        ],
      };
      expect(out.events).toContainEqual({ type: 'freshness', time: NOW, report });
      expect(out.summary?.freshness).toMatchObject({ checked: 3, stale: report.stale });
      expect(
        exitStatusOf({ status: 'SUCCEEDED', output: out.summary }, { executionArn: 'x', stoppedByUs: false })
          .exitCode,
      ).toBe(0);
    });

    it('fails a run started by hand while the holder still runs, naming the holder', async () => {
      // Arrange
      const own = new MemoryJobLock();
      await own.acquire(KEY, { owner: 'run-busy', ttlSeconds: 60 });

      // Act
      const taking = lockSteps(own, 'RUNNING').take(input('run-second'));

      // Assert
      await expect(taking).rejects.toMatchObject({
        name: 'JobLockedError',
        message: 'Job "web" in namespace "default" is already being restarted by execution "run-busy"',
      });
    });
  });

  describe('guard', () => {
    it('stops at the window end by the kit clock, before renewing the lease', async () => {
      // Arrange: the run holds no lock, so a renewal would find it lost.
      const ended = input('run-1', restartOptions('web', { windowEnd: NOW - 1 }));

      // Act
      const stop = await lockSteps(new MemoryJobLock()).guard(ended);

      // Assert
      expect(stop).toEqual({
        guard: { blocked: false, canceled: false, windowEnded: true },
        events: [{ type: 'window-ended', time: NOW, windowEnd: NOW - 1, done: 2, left: 4 }],
      });
    });

    it('stops a run that lost the job, the loss counted as an error', async () => {
      // Arrange
      const own = new MemoryJobLock();
      await own.acquire(KEY, { owner: 'run-other', ttlSeconds: 60 });

      // Act
      const stop = await lockSteps(own).guard(input('run-1'));

      // Assert
      expect(stop).toMatchObject({
        guard: { blocked: true, canceled: false, windowEnded: false },
        progress: { errorCount: 1 },
        events: [{ type: 'lock-lost', time: NOW, jobId: 'web', left: 4 }],
      });
    });

    it('lets a run that holds the job go on, with its cancel request winning first', async () => {
      // Arrange
      const own = new MemoryJobLock();
      await own.acquire(KEY, { owner: 'run-1', ttlSeconds: 60 });
      const steps = lockSteps(own);

      // Act
      const goOn = await steps.guard(input('run-1'));
      await own.requestCancel(KEY, 'run-1');
      const canceled = await steps.guard(input('run-1'));

      // Assert: a state with no read time reads the request now, and says when.
      expect(goOn).toEqual({ run: { ...input('run-1').run, leaseRenewedAt: NOW, controlReadAt: NOW } });
      expect(canceled).toEqual({ guard: { blocked: false, canceled: true }, events: [] });
    });

    it('renews no lease with more than half left: a lock lost meanwhile waits for the next renewal', async () => {
      // Arrange: another run holds the job, but this one renewed at NOW with a 60 s lease.
      const own = new MemoryJobLock();
      await own.acquire(KEY, { owner: 'run-other', ttlSeconds: 60 });
      const recent = input('run-1');
      const renewed = { ...recent, run: { ...recent.run, leaseRenewedAt: NOW - 29_000 } };
      const halfGone = { ...recent, run: { ...recent.run, leaseRenewedAt: NOW - 31_000 } };

      // Act
      const goOn = await lockSteps(own).guard(renewed);
      const stop = await lockSteps(own).guard(halfGone);

      // Assert
      expect(goOn).toEqual({ run: { ...renewed.run, controlReadAt: NOW } });
      expect(stop).toMatchObject({ guard: { blocked: true }, events: [{ type: 'lock-lost' }] });
    });
  });

  describe('keepLease', () => {
    it('answers a lost lock instead of throwing: the next safe point stops the run', async () => {
      // Arrange
      const own = new MemoryJobLock();
      await own.acquire(KEY, { owner: 'run-other', ttlSeconds: 60 });

      // Act
      const kept = await lockSteps(own).keepLease(input('run-1'));

      // Assert: the renewal is due again, so the next safe point renews and stops the run.
      expect(kept).toMatchObject({ renewed: false, lost: true });
      expect(kept.run).not.toHaveProperty('leaseRenewedAt');
    });
  });

  describe('release', () => {
    it("frees only the run's own lock", async () => {
      // Arrange
      const own = new MemoryJobLock();
      await own.acquire(KEY, { owner: 'run-1', ttlSeconds: 60 });
      const steps = lockSteps(own);

      // Act
      const byOther = await steps.release('run-2', KEY);
      const byHolder = await steps.release('run-1', KEY);

      // Assert
      expect([byOther, byHolder]).toEqual([false, true]);
      expect(own.holder(KEY)).toBeUndefined();
    });
  });
});

describe('questionLeaseSeconds', () => {
  it.each([
    { name: 'keeps the usual lease past a short question', lease: 86_400, timeout: 600, expected: 86_400 },
    { name: 'outlasts a long question by an hour', lease: 86_400, timeout: 172_800, expected: 176_400 },
    {
      name: 'lasts an hour at least for a question without a timeout',
      lease: 60,
      timeout: undefined,
      expected: 3_600,
    },
  ])('$name', ({ lease, timeout, expected }) => {
    // Act
    const seconds = questionLeaseSeconds(lease, timeout);

    // Assert
    expect(seconds).toBe(expected);
  });
});
