import type { AllocListStub, TaskState } from '../../../lib/nomad/types';
import type { PlannedAllocation, SkippedAllocation } from '../../../lib/restart/filter';
import {
  type FreshnessFacts,
  freshnessReport,
  STALE_BUDGET_BYTES,
  shownFresh,
} from '../../../lib/restart/freshness/report';
import { staleCount, staleFails } from '../../../lib/restart/freshness/stale';
import type { RestartPlan } from '../../../lib/restart/plan';

const T = Date.UTC(2026, 11, 7, 10, 0, 0);
const BEFORE = new Date(T - 60_000).toISOString();
const AFTER = new Date(T + 60_000).toISOString();
const RUNNING_TASKS = { tasks: [], allTasks: false, reschedule: false };

const task = (State: string, StartedAt: string | null): TaskState => ({ State, StartedAt });

/** A running allocation of job `web` with the given task states. */
function stub(
  ID: string,
  states: Record<string, TaskState>,
  extra: Partial<AllocListStub> = {},
): AllocListStub {
  return {
    ID,
    JobID: 'web',
    TaskGroup: 'g',
    DesiredStatus: 'run',
    ClientStatus: 'running',
    TaskStates: states,
    CreateIndex: 1,
    ModifyIndex: 1,
    ...extra,
  };
}

const planned = (id: string): PlannedAllocation => ({ id, group: 'g', jobId: 'web', tasks: [] });

/** A plan of `batches` (allocation IDs) that skipped `skipped`. */
function plan(batches: string[][], skipped: SkippedAllocation[] = []): RestartPlan {
  const eligible = batches.flat().length;
  return {
    kind: 'plan',
    job: { id: 'web', multiregion: false },
    batchSize: batches[0]?.length ?? 0,
    batches: batches.map((batch) => batch.map(planned)),
    skipped,
    counts: { listed: eligible + skipped.length, eligible, skipped: skipped.length, skippedBy: {} },
    createdAt: T,
  };
}

function facts(over: Partial<FreshnessFacts>): FreshnessFacts {
  return {
    plan: plan([['a1', 'a2'], ['a3']]),
    namespace: 'default',
    startedBefore: T,
    scope: RUNNING_TASKS,
    work: { reachedBatches: 2, failed: new Set(), locked: false },
    reread: [],
    ...over,
  };
}

const freshStub = (id: string) => stub(id, { main: task('running', AFTER) });
const staleStub = (id: string) => stub(id, { main: task('running', BEFORE) });

describe('freshness', () => {
  describe('shownFresh', () => {
    it.each([
      {
        name: 'a task started exactly at the time',
        states: { main: task('running', new Date(T).toISOString()) },
        fresh: true,
      },
      {
        name: 'a task started after it (nanoseconds)',
        states: { main: task('running', '2026-12-07T10:00:00.000000001Z') },
        fresh: true,
      },
      {
        name: 'a task started a nanosecond before it',
        states: { main: task('running', '2026-12-07T09:59:59.999999999Z') },
        fresh: false,
      },
      {
        name: 'one stale task beside a fresh one',
        states: { main: task('running', AFTER), side: task('running', BEFORE) },
        fresh: false,
      },
      { name: 'a task that never started', states: { main: task('running', null) }, fresh: false },
      {
        name: 'no task in scope (the running task crashed)',
        states: { main: task('dead', AFTER) },
        fresh: false,
      },
    ])('says $fresh for $name', ({ states, fresh }) => {
      // Arrange
      const alloc = stub('a1', states);

      // Act
      const shown = shownFresh(alloc, RUNNING_TASKS, T);

      // Assert
      expect(shown).toBe(fresh);
    });

    it('proves nothing for an allocation that no longer runs', () => {
      // Arrange
      const alloc = stub('a1', { main: task('running', AFTER) }, { ClientStatus: 'failed' });

      // Act
      const shown = shownFresh(alloc, RUNNING_TASKS, T);

      // Assert
      expect(shown).toBe(false);
    });
  });

  describe('freshnessReport', () => {
    it('counts every restarted allocation the re-read shows fresh, and nothing stale', () => {
      // Arrange
      const input = facts({
        plan: plan(
          [['a1', 'a2'], ['a3']],
          [{ id: 'f1', reason: { kind: 'started-after', startedBefore: T } }],
        ),
        reread: [freshStub('a1'), freshStub('a2'), freshStub('a3'), freshStub('f1')],
      });

      // Act
      const report = freshnessReport(input);

      // Assert
      expect(report).toEqual({
        namespace: 'default',
        jobId: 'web',
        startedBefore: T,
        checked: 4,
        restarted: 3,
        alreadyFresh: 1,
        stale: [],
      });
      expect(staleFails(report)).toBe(false);
    });

    it('leaves out of scope what the plan skipped for other reasons', () => {
      // Arrange
      const input = facts({
        plan: plan([['a1']], [{ id: 'x', reason: { kind: 'group' } }]),
        reread: [freshStub('a1'), staleStub('x')],
      });

      // Act
      const report = freshnessReport(input);

      // Assert
      expect(report).toMatchObject({ checked: 1, restarted: 1, alreadyFresh: 0, stale: [] });
    });

    it('names an allocation whose restart failed as stale, and fails the run', () => {
      // Arrange
      const input = facts({
        work: { reachedBatches: 2, failed: new Set(['a2']), locked: false },
        reread: [freshStub('a1'), staleStub('a2'), freshStub('a3')],
      });

      // Act
      const report = freshnessReport(input);

      // Assert
      expect(report).toMatchObject({
        checked: 3,
        restarted: 2,
        stale: [{ allocationId: 'a2', why: 'failed' }],
      });
      expect(staleFails(report)).toBe(true);
    });

    it('calls an allocation restarted without an error but still stale on re-read failed', () => {
      // Arrange: the restart call returned, the task did not start again.
      const input = facts({ reread: [freshStub('a1'), freshStub('a2'), staleStub('a3')] });

      // Act
      const report = freshnessReport(input);

      // Assert
      expect(report.stale).toEqual([{ allocationId: 'a3', why: 'failed' }]);
    });

    it('calls the allocations of batches the run never reached not-reached', () => {
      // Arrange
      const input = facts({
        work: { reachedBatches: 1, failed: new Set(), locked: false },
        reread: [freshStub('a1'), freshStub('a2'), staleStub('a3')],
      });

      // Act
      const report = freshnessReport(input);

      // Assert
      expect(report).toMatchObject({ restarted: 2, stale: [{ allocationId: 'a3', why: 'not-reached' }] });
    });

    it('counts an unreached allocation that something else restarted as already fresh', () => {
      // Arrange
      const input = facts({
        work: { reachedBatches: 1, failed: new Set(), locked: false },
        reread: [freshStub('a1'), freshStub('a2'), freshStub('a3')],
      });

      // Act
      const report = freshnessReport(input);

      // Assert
      expect(report).toMatchObject({ checked: 3, restarted: 2, alreadyFresh: 1, stale: [] });
    });

    it('follows a rescheduled allocation to the replacement that runs now', () => {
      // Arrange: a1 was stopped and replaced by r1, which started after the time.
      const input = facts({
        plan: plan([['a1']]),
        scope: { ...RUNNING_TASKS, reschedule: true },
        reread: [
          stub('a1', { main: task('dead', BEFORE) }, { ClientStatus: 'complete', NextAllocation: 'r1' }),
          freshStub('r1'),
        ],
      });

      // Act
      const report = freshnessReport(input);

      // Assert
      expect(report).toMatchObject({ restarted: 1, stale: [] });
    });

    it('calls an allocation the re-read no longer lists stale', () => {
      // Arrange
      const input = facts({ plan: plan([['a1']]), reread: [] });

      // Act
      const report = freshnessReport(input);

      // Assert
      expect(report.stale).toEqual([{ allocationId: 'a1', why: 'failed' }]);
    });

    it('checks allocations an earlier run of the same restart restarted against the re-read', () => {
      // Arrange
      const input = facts({
        plan: plan(
          [['a1']],
          [
            { id: 'd1', reason: { kind: 'done' } },
            { id: 'd2', reason: { kind: 'done' } },
          ],
        ),
        reread: [freshStub('a1'), freshStub('d1'), staleStub('d2')],
      });

      // Act
      const report = freshnessReport(input);

      // Assert
      expect(report).toMatchObject({
        checked: 3,
        restarted: 1,
        alreadyFresh: 1,
        stale: [{ allocationId: 'd2', why: 'not-reached' }],
      });
    });

    it('calls every planned allocation of a run skipped for the lock locked, which does not fail it', () => {
      // Arrange
      const input = facts({ work: { reachedBatches: 0, failed: new Set(), locked: true }, reread: null });

      // Act
      const report = freshnessReport(input);

      // Assert
      expect(report.stale.map((s) => s.why)).toEqual(['locked', 'locked', 'locked']);
      expect(report.restarted).toBe(0);
      expect(staleFails(report)).toBe(false);
    });

    it('keeps a sample of a long stale list within its budget and counts the rest', () => {
      // Arrange
      const ids = Array.from(
        { length: 5_000 },
        (_, i) => `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
      );
      const input = facts({
        plan: plan([ids]),
        work: { reachedBatches: 0, failed: new Set(), locked: false },
      });

      // Act
      const report = freshnessReport(input);

      // Assert
      expect(Buffer.byteLength(JSON.stringify(report.stale))).toBeLessThan(STALE_BUDGET_BYTES);
      expect(report.stale.length).toBeGreaterThan(0);
      expect(staleCount(report)).toBe(5_000);
      expect(staleFails(report)).toBe(true);
    });
  });
});
