// Scenario: T3, the 14 cases of Nomad's TestJobRestartCommand_Run for a service and
// a batch job, each through the real command (a subprocess) against ONE simulator holding a
// fresh copy of the T3 job per case (group single_task: 3 × main; group multiple_tasks: 2 ×
// a dead prestart task, a poststart sidecar and main), or against the agent at
// NOMAD_E2E_ADDR, four cases' jobs at a time. The task events read back through the API say
// which tasks were restarted; stdout says how the batches were cut. Runs two commands at a time.
import { jest } from '@jest/globals';
import type { AllocListStub, Job } from '../../lib/nomad/types';
import { t3Job } from '../steps/helpers/harness';
import { E2E_ADDR, openE2e, restartedTasks } from './helpers/e2e-target';
import { type CliResult, runCliPool } from './helpers/run-cli';

// A real agent runs the 28 jobs four at a time, each waiting on real restarts.
if (E2E_ADDR) jest.setTimeout(600_000);

const ALL = ['single_task.main', 'multiple_tasks.sidecar', 'multiple_tasks.main'];
const SINGLE = ['single_task.main'];

interface T3Case {
  readonly id: string;
  readonly name: string;
  readonly args: readonly string[];
  readonly code: number;
  /** `group.task` restarted in every allocation of that group (others must not be). */
  readonly restarted: readonly string[];
  /** Batch headers expected on stdout, in order. */
  readonly batches: readonly string[];
  /** -reschedule: how many original allocations must end with a replacement. */
  readonly replaced?: number;
  readonly waits?: number;
}

const FIRST_OF_5 = ['Restarting 1st batch of 5 allocations'];

/**
 * Cases 10 and 11: `main` restarted in every allocation, 3 then 2 at a time, the size as a count
 * or a percent of 5. Nomad waits 3s; 1s keeps the suite fast and still separates the batches.
 */
function mainInBatchesOf3Then2(id: string, name: string, batchSize: string): T3Case {
  return {
    id,
    name,
    args: ['-batch-size', batchSize, '-batch-wait', '1s', '-task', 'main'],
    code: 0,
    restarted: ['single_task.main', 'multiple_tasks.main'],
    batches: ['Restarting 1st batch of 3 allocations', 'Restarting 2nd batch of 2 allocations'],
    waits: 1,
  };
}
const CASES: readonly T3Case[] = [
  {
    id: '1',
    name: 'restart only running tasks in all groups by default',
    args: ['-batch-size', '100%'],
    code: 0,
    restarted: ALL,
    batches: FIRST_OF_5,
  },
  {
    id: '2',
    name: 'restart specific task in all groups',
    args: ['-batch-size', '100%', '-task', 'main'],
    code: 0,
    restarted: ['single_task.main', 'multiple_tasks.main'],
    batches: FIRST_OF_5,
  },
  {
    id: '3',
    name: 'restart multiple tasks in all groups',
    args: ['-batch-size', '100%', '-task', 'main', '-task', 'sidecar'],
    code: 0,
    restarted: ALL,
    batches: FIRST_OF_5,
  },
  {
    id: '4',
    name: 'restart all tasks in all groups',
    args: ['-batch-size', '100%', '-all-tasks'],
    code: 0,
    restarted: [...ALL, 'multiple_tasks.prestart'],
    batches: FIRST_OF_5,
  },
  {
    id: '5',
    name: 'restart running tasks in specific group',
    args: ['-batch-size', '100%', '-group', 'single_task'],
    code: 0,
    restarted: SINGLE,
    batches: ['Restarting 1st batch of 3 allocations'],
  },
  {
    id: '6',
    name: 'restart specific task that is not running',
    args: ['-batch-size', '100%', '-task', 'prestart'],
    code: 1,
    restarted: [],
    batches: ['Restarting 1st batch of 2 allocations'],
  },
  {
    id: '7',
    name: 'restart specific task in specific group',
    args: ['-batch-size', '100%', '-task', 'main', '-group', 'single_task'],
    code: 0,
    restarted: SINGLE,
    batches: ['Restarting 1st batch of 3 allocations'],
  },
  {
    id: '8',
    name: 'restart multiple tasks in specific group',
    args: ['-batch-size', '100%', '-task', 'main', '-task', 'sidecar', '-group', 'multiple_tasks'],
    code: 0,
    restarted: ['multiple_tasks.sidecar', 'multiple_tasks.main'],
    batches: ['Restarting 1st batch of 2 allocations'],
  },
  {
    id: '9',
    name: 'restart all tasks in specific group',
    args: ['-batch-size', '100%', '-all-tasks', '-group', 'multiple_tasks'],
    code: 0,
    restarted: ['multiple_tasks.prestart', 'multiple_tasks.sidecar', 'multiple_tasks.main'],
    batches: ['Restarting 1st batch of 2 allocations'],
  },
  mainInBatchesOf3Then2('10', 'restart in batches', '3'),
  mainInBatchesOf3Then2('11', 'restart in percent batch', '50%'),
  {
    id: '12',
    name: 'restart in batch ask with yes',
    args: ['-batch-size', '100%', '-batch-wait', 'ask', '-group', 'single_task'],
    code: 0,
    restarted: SINGLE,
    batches: ['Restarting 1st batch of 3 allocations'],
  },
  {
    id: '13',
    name: 'reschedule in batches',
    args: ['-reschedule', '-batch-size', '3'],
    code: 0,
    restarted: [],
    batches: ['Restarting 1st batch of 3 allocations', 'Restarting 2nd batch of 2 allocations'],
    replaced: 5,
    waits: 0,
  },
  {
    id: '14',
    name: 'reschedule specific group',
    args: ['-reschedule', '-batch-size', '100%', '-group', 'single_task'],
    code: 0,
    restarted: [],
    batches: ['Restarting 1st batch of 3 allocations'],
    replaced: 3,
  },
];
const TYPES = ['service', 'batch'] as const;
const ROWS = TYPES.flatMap((type) => CASES.map((c) => ({ ...c, type, jobId: `t3-${c.id}-${type}` })));
type Row = (typeof ROWS)[number];

function jobFor(id: string, type: 'service' | 'batch'): Job {
  return { ...t3Job(type), ID: id, Name: id };
}

function expectedRestarts(restarted: readonly string[]): string[] {
  const counts: Record<string, number> = { single_task: 3, multiple_tasks: 2 };
  return restarted.flatMap((t) => Array<string>(counts[t.split('.')[0] ?? ''] ?? 0).fill(t)).sort();
}

/** What the case expects of the original allocations afterwards: the restarted tasks, the replacements. */
function settled(row: Row, originals: readonly AllocListStub[]): boolean {
  const replaced = originals.filter((a) => a.NextAllocation).length;
  return (
    JSON.stringify(restartedTasks(originals)) === JSON.stringify(expectedRestarts(row.restarted)) &&
    replaced === (row.replaced ?? 0)
  );
}

// All 28 jobs on one simulator; an agent gets four cases' jobs at a time, purged after.
const WAVE = E2E_ADDR ? 4 : ROWS.length;
const WAVES = Array.from({ length: Math.ceil(ROWS.length / WAVE) }, (_, i) =>
  ROWS.slice(WAVE * i, WAVE * (i + 1)),
);

describe('nomad-restart T3 (TestJobRestartCommand_Run)', () => {
  /** Per job: the command's result and the allocations it started with, as they are afterwards. */
  const results = new Map<string, { cli: CliResult; originals: AllocListStub[] }>();
  beforeAll(async () => {
    for (const wave of WAVES) {
      const target = await openE2e({ jobs: wave.map((row) => jobFor(row.jobId, row.type)) });
      try {
        await Promise.all(wave.map((row) => target.waitRunning(row.jobId, 5)));
        // Snapshotted before the run, as upstream does: list stubs carry no PreviousAllocation.
        const before = await Promise.all(
          wave.map(async (row) => new Set((await target.allocations(row.jobId)).map((a) => a.ID))),
        );
        const env = target.env;
        const out = await runCliPool(wave.map((row) => ({ args: ['-yes', ...row.args, row.jobId], env })));
        for (const [i, row] of wave.entries()) {
          const originalsOf = (all: AllocListStub[]) => all.filter((a) => before[i]?.has(a.ID));
          const after = await target.allocationsWhen(row.jobId, (all) => settled(row, originalsOf(all)));
          results.set(row.jobId, { cli: out[i] as CliResult, originals: originalsOf(after) });
        }
      } finally {
        await target.close();
      }
    }
  });

  it.each(ROWS)('$id $type: $name', (row) => {
    // Arrange
    const { cli: result, originals } = results.get(row.jobId) ?? { originals: [] };

    // Act
    const headers = (result?.stdout ?? '').match(/Restarting \d\w\w batch of \d+ allocations/g) ?? [];

    // Assert
    expect(result?.code).toBe(row.code);
    expect(headers).toEqual(row.batches);
    if (row.batches.length === 1) expect(result?.stdout).not.toContain('restarting the next batch');
    if (row.waits !== undefined) expect(result?.stdout.match(/Waiting/g) ?? []).toHaveLength(row.waits);
    expect(originals).toHaveLength(5);
    expect(restartedTasks(originals)).toEqual(expectedRestarts(row.restarted));
    if (row.replaced !== undefined) {
      expect(originals.filter((a) => a.NextAllocation)).toHaveLength(row.replaced);
    }
    if (row.code === 1) {
      expect(result?.stderr).toMatch(/^\n2 errors occurred while restarting job:\n/);
      expect(result?.stderr.match(/Unexpected response code: 500 \(Task not running\)/g)).toHaveLength(2);
    } else {
      expect(result?.stdout.endsWith('==> <ts>: Job restart finished\n\nJob restarted successfully!\n')).toBe(
        true,
      );
    }
  });
});
