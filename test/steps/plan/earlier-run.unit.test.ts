/**
 * What a new run takes from an earlier run of the same job that never ended: the job's record,
 * the earlier plan and journals, what Nomad shows of the allocations it had in flight, and the
 * replacements of those it stopped.
 */
import { jest } from '@jest/globals';
import type { Allocation, AllocListStub, TaskState } from '../../../lib/nomad/types';
import { withReplacements } from '../../../lib/restart/earlier-work';
import type { RestartPlan } from '../../../lib/restart/plan';
import type { BatchJournal } from '../../../lib/steps/batch/restart-batch';
import {
  jobRunKey,
  readUnfinishedRun,
  recordRunEnded,
  recordRunHoldsJob,
  type UnfinishedRun,
  workOf,
} from '../../../lib/steps/plan/earlier-run';
import { MemoryPlanStore } from '../../../lib/stores/plan-store';

const KEY = jobRunKey('default', 'web');
const planned = (id: string) => ({ id, group: 'g', jobId: 'web', tasks: [] });
const stub = (id: string, extra: Partial<AllocListStub> = {}): AllocListStub => ({
  ID: id,
  JobID: 'web',
  TaskGroup: 'g',
  DesiredStatus: 'run',
  ClientStatus: 'running',
  CreateIndex: 1,
  ModifyIndex: 1,
  ...extra,
});
const plan = (batches: string[][], resumed?: RestartPlan['resumed']): RestartPlan => ({
  kind: 'plan',
  job: { id: 'web', multiregion: false },
  batchSize: 2,
  batches: batches.map((b) => b.map(planned)),
  skipped: [],
  counts: { listed: 4, eligible: 4, skipped: 0, skippedBy: {} },
  createdAt: 0,
  ...(resumed === undefined ? {} : { resumed }),
});
const journal = (
  batchIndex: number,
  outcomes: BatchJournal['outcomes'],
  startedAt = 1_000,
): BatchJournal => ({
  batchIndex,
  startedAt,
  outcomes,
});

describe('jobRunKey', () => {
  it('keeps a job ID with slashes and spaces in one path segment', () => {
    // Act
    const key = jobRunKey('ops', 'batch/nightly job');

    // Assert
    expect(key).toBe('jobs/ops/batch%2Fnightly%20job/run.json');
  });
});

describe('readUnfinishedRun', () => {
  it('reads the plan and the journals of the batches the run started, up to the first missing one', async () => {
    // Arrange
    const store = new MemoryPlanStore();
    await store.put('runs/a/plan.json', plan([['a1', 'a2'], ['a3', 'a4'], ['a5']]));
    await store.put('runs/a/batch-0.json', journal(0, {}));
    await store.put('runs/a/batch-2.json', journal(2, {}));
    await recordRunHoldsJob(store, KEY, 'run-a', 'runs/a/plan.json');

    // Act
    const earlier = await readUnfinishedRun(store, KEY, 'run-b');

    // Assert
    expect(earlier?.runId).toBe('run-a');
    expect(earlier?.journals.map((j) => j.batchIndex)).toEqual([0]);
  });

  it('has nothing to resume from a run that ended, from the asking run itself, or without a record', async () => {
    // Arrange
    const store = new MemoryPlanStore();
    await store.put('runs/a/plan.json', plan([['a1']]));

    // Act
    const none = await readUnfinishedRun(store, KEY, 'run-b');
    await recordRunHoldsJob(store, KEY, 'run-a', 'runs/a/plan.json');
    const self = await readUnfinishedRun(store, KEY, 'run-a');
    await recordRunEnded(store, KEY, 'run-other', 5);
    const stillOpen = await readUnfinishedRun(store, KEY, 'run-b');
    await recordRunEnded(store, KEY, 'run-a', 5);
    const ended = await readUnfinishedRun(store, KEY, 'run-b');

    // Assert
    expect(none).toBeUndefined();
    expect(self).toBeUndefined();
    expect(stillOpen?.runId).toBe('run-a');
    expect(ended).toBeUndefined();
  });
});

describe('workOf', () => {
  it('counts journaled outcomes, and in-flight allocations Nomad shows restarted or stopped, but not failures', async () => {
    // Arrange: batch 0 settled (a1 restarted, a2 failed), batch 1 in flight when the run died.
    const earlier: UnfinishedRun = {
      runId: 'run-a',
      plan: plan(
        [
          ['a1', 'a2'],
          ['a3', 'a4', 'a5'],
        ],
        { runId: 'run-0', restarted: ['z1'], stopped: ['z2'] },
      ),
      journals: [
        journal(0, {
          a1: { allocationId: 'a1', group: 'g', status: 'restarted' },
          a2: { allocationId: 'a2', group: 'g', status: 'failed', errors: [] },
        }),
        journal(1, {}, 10_000),
      ],
    };
    const signaled = { State: 'running', Events: [{ Type: 'Restart Signaled', Time: 10_500 * 1e6 }] };
    const stubs = [
      stub('a3', { TaskStates: { t: signaled } as Record<string, TaskState> }),
      stub('a4', { DesiredTransition: { Migrate: true }, TaskStates: {} }),
      stub('a5', { TaskStates: {} }),
    ];
    const readWhole = jest.fn(async (id: string): Promise<Allocation> => {
      throw new Error(`${id} read whole, though its stub has its task states`);
    });

    // Act
    const work = await workOf(earlier, stubs, readWhole);

    // Assert
    expect(work).toEqual({ runId: 'run-a', restarted: ['z1', 'a1', 'a3'], stopped: ['z2', 'a4'] });
    expect(readWhole).not.toHaveBeenCalled();
  });

  it('reads an in-flight allocation whole when its stub came without task states (a large job)', async () => {
    // Arrange: batch 0 in flight; the list was read with task_states=false, so no stub has them.
    const earlier: UnfinishedRun = {
      runId: 'run-a',
      plan: plan([['a1', 'a2', 'a3']]),
      journals: [journal(0, { a1: { allocationId: 'a1', group: 'g', status: 'restarted' } }, 10_000)],
    };
    const signaled = { State: 'running', Events: [{ Type: 'Restart Signaled', Time: 10_500 * 1e6 }] };
    const stubs = [stub('a1'), stub('a2'), stub('a3')];
    const whole: Record<string, Allocation> = {
      a2: { ...stub('a2'), TaskStates: { t: signaled } } as unknown as Allocation,
      a3: { ...stub('a3'), TaskStates: { t: { State: 'running', Events: [] } } } as unknown as Allocation,
    };
    const readWhole = jest.fn(async (id: string) => whole[id] as Allocation);

    // Act
    const work = await workOf(earlier, stubs, readWhole);

    // Assert: a2's restart is found, a3 was not reached, a1's journal needed no read.
    expect(work).toEqual({ runId: 'run-a', restarted: ['a1', 'a2'], stopped: [] });
    expect(readWhole.mock.calls.map(([id]) => id)).toEqual(['a2', 'a3']);
  });
});

describe('withReplacements', () => {
  it('adds the whole replacement chain of each allocation an earlier run stopped', () => {
    // Arrange: s1 was stopped, replaced by r1, itself replaced by r2.
    const stubs = [
      stub('s1', { DesiredStatus: 'stop', NextAllocation: 'r1' }),
      stub('r1', { DesiredStatus: 'stop', NextAllocation: 'r2' }),
      stub('r2'),
      stub('x1'),
      stub('x2'),
    ];

    // Act
    const done = withReplacements(['s1', 'x1'], stubs);

    // Assert
    expect([...done].sort()).toEqual(['r1', 'r2', 's1', 'x1']);
  });
});
