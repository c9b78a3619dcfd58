/**
 * Scenario: Nomad's `command/job_restart_test.go` `TestJobRestartCommand_Run`, in-place cases
 * 3.1–3.12, for a batch and a service job. A simulator holds the T3 job (5 running allocations: 3 ×
 * single_task, 2 × multiple_tasks with a finished prestart task and a sidecar); the synthesized
 * workflow runs the whole restart through the local engine with `-yes`; we check which tasks got
 * `Restart Signaled`, the batches and the waits.
 */

import type { RestartOptions } from '../../../lib/restart/options';
import { FlowStates } from '../../../lib/workflow/state-names';
import { restartOptions } from '../../fixtures/restart-options';
import { allocationsOf, eventsOf, harnessPerTest, restartedTasks, t3Job } from '../../steps/helpers/harness';
import { runWorkflow } from './helpers/workflow-harness';

const ALL = { value: 100, percent: true };
const S = 'single_task';
const M = 'multiple_tasks';

interface Case {
  name: string;
  over: Partial<RestartOptions>;
  /** Per group, the tasks expected to restart in every allocation of the group. */
  restarted: Record<string, string[]>;
  batchSizes: number[];
  exitCode: 0 | 1;
  waits: number;
}

/** One case: exit code 0 and no waits between batches unless `end` says otherwise. */
function row(
  name: string,
  over: Partial<RestartOptions>,
  restarted: Case['restarted'],
  batchSizes: number[],
  end: Partial<Pick<Case, 'exitCode' | 'waits'>> = {},
): Case {
  return { name, over, restarted, batchSizes, exitCode: end.exitCode ?? 0, waits: end.waits ?? 0 };
}

/** `main` restarted in every allocation, 3 then 2 at a time, 3 s apart: the size as a count or a percent of 5. */
function mainInBatchesOf3Then2(name: string, batchSize: RestartOptions['batchSize']): Case {
  const over: Partial<RestartOptions> = {
    batchSize,
    batchWait: { kind: 'duration', ns: 3e9 },
    tasks: ['main'],
  };
  return row(name, over, { [S]: ['main'], [M]: ['main'] }, [3, 2], { waits: 1 });
}

const cases: Case[] = [
  row(
    '3.1 restarts only running tasks in all groups by default',
    { batchSize: ALL },
    { [S]: ['main'], [M]: ['main', 'sidecar'] },
    [5],
  ),
  row(
    '3.2 restarts a specific task in all groups',
    { batchSize: ALL, tasks: ['main'] },
    { [S]: ['main'], [M]: ['main'] },
    [5],
  ),
  row(
    '3.3 restarts multiple tasks in all groups',
    { batchSize: ALL, tasks: ['main', 'sidecar'] },
    { [S]: ['main'], [M]: ['main', 'sidecar'] },
    [5],
  ),
  row(
    '3.4 restarts all tasks in all groups',
    { batchSize: ALL, allTasks: true },
    { [S]: ['main'], [M]: ['main', 'prestart', 'sidecar'] },
    [5],
  ),
  row(
    '3.5 restarts running tasks in a specific group',
    { batchSize: ALL, groups: [S] },
    { [S]: ['main'], [M]: [] },
    [3],
  ),
  row(
    '3.6 fails on a specific task that is not running',
    { batchSize: ALL, tasks: ['prestart'] },
    { [S]: [], [M]: [] },
    [2],
    { exitCode: 1 },
  ),
  row(
    '3.7 restarts a specific task in a specific group',
    { batchSize: ALL, tasks: ['main'], groups: [S] },
    { [S]: ['main'], [M]: [] },
    [3],
  ),
  row(
    '3.8 restarts multiple tasks in a specific group',
    { batchSize: ALL, tasks: ['main', 'sidecar'], groups: [M] },
    { [S]: [], [M]: ['main', 'sidecar'] },
    [2],
  ),
  row(
    '3.9 restarts all tasks in a specific group',
    { batchSize: ALL, allTasks: true, groups: [M] },
    { [S]: [], [M]: ['main', 'prestart', 'sidecar'] },
    [2],
  ),
  mainInBatchesOf3Then2('3.10 restarts in batches', { value: 3, percent: false }),
  mainInBatchesOf3Then2('3.11 restarts in percent batches', { value: 50, percent: true }),
  row(
    '3.12 never asks with -batch-wait ask and -yes',
    { batchSize: ALL, batchWait: { kind: 'ask' }, groups: [S] },
    { [S]: ['main'], [M]: [] },
    [3],
  ),
];

const rows = (['batch', 'service'] as const).flatMap((type) => cases.map((c) => ({ ...c, type })));

describe('the workflow', () => {
  describe('in place (T3)', () => {
    const harness = harnessPerTest();

    it.each(rows)('$name ($type job)', async ({ type, over, restarted, batchSizes, exitCode, waits }) => {
      // Arrange
      const job = t3Job(type);
      const h = await harness.startRunning(job);
      const before = allocationsOf(h, job.ID);

      // Act
      const run = await runWorkflow(h, restartOptions(job.ID, over));

      // Assert
      const expected = before.flatMap((a) =>
        (restarted[a.TaskGroup] ?? []).map((t) => `${a.ID}:${a.TaskGroup}.${t}`),
      );
      expect(restartedTasks(allocationsOf(h, job.ID)).sort()).toEqual(expected.sort());
      expect(run.exitCode).toBe(exitCode);
      expect(run.prompts).toEqual([]);
      expect(eventsOf(run.events, 'batch-started').map((e) => e.size)).toEqual(batchSizes);
      expect(eventsOf(run.events, 'waiting').map((e) => e.waitMs)).toEqual(Array(waits).fill(3000));
      expect(run.entered.filter((s) => s === FlowStates.waitBeforeNextBatch)).toHaveLength(waits);
      expect(eventsOf(run.events, 'finished')).toHaveLength(1);
    });

    it('reports each "Task not running" with the allocation and task (3.6)', async () => {
      // Arrange
      const job = t3Job('service');
      const h = await harness.startRunning(job);
      const ids = allocationsOf(h, job.ID)
        .filter((a) => a.TaskGroup === M)
        .map((a) => a.ID.slice(0, 8));

      // Act
      const run = await runWorkflow(h, restartOptions(job.ID, { batchSize: ALL, tasks: ['prestart'] }));

      // Assert
      expect([...run.errors].sort()).toEqual(
        ids
          .map(
            (id) =>
              `Error restarting allocation "${id}": Failed to restart task "prestart": Unexpected response code: 500 (Task not running)`,
          )
          .sort(),
      );
      expect(run.result).toMatchObject({ status: 'FAILED', error: 'RestartFailed' });
    });

    it('emits one restart line per allocation, with the mode, and counts all five', async () => {
      // Arrange
      const job = t3Job('batch');
      const h = await harness.startRunning(job);

      // Act
      const { events } = await runWorkflow(
        h,
        restartOptions(job.ID, { batchSize: { value: 2, percent: false }, allTasks: true }),
      );

      // Assert
      expect(eventsOf(events, 'restart-started')).toEqual([expect.objectContaining({ count: 5 })]);
      expect(eventsOf(events, 'batch-started').map((e) => [e.batchNumber, e.size])).toEqual([
        [1, 2],
        [2, 2],
        [3, 1],
      ]);
      const restarting = eventsOf(events, 'allocation-restarting');
      expect(restarting).toHaveLength(5);
      expect(restarting.every((e) => e.mode.kind === 'all-tasks')).toBe(true);
      expect(eventsOf(events, 'finished')).toEqual([
        expect.objectContaining({ errors: [], canceled: false }),
      ]);
    });
  });
});
