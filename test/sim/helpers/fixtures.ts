/**
 * Jobs and scenarios shared by the simulator tests, modelled on Nomad's upstream fixtures
 * (`command/job_restart_test.go`).
 */
import type { Job, TaskGroup } from '../../../lib/nomad/types';
import type { Scenario } from '../../../sim/index';

/** Seconds to Nomad's nanoseconds. */
export const seconds = (s: number): number => s * 1_000_000_000;

/** A one-task group; `runFor` is a Go duration (mock_driver's `run_for`). */
export function group(
  name: string,
  count: number,
  extra: Partial<TaskGroup> = {},
  runFor?: string,
): TaskGroup {
  return {
    Name: name,
    Count: count,
    Tasks: [{ Name: 'main', Driver: 'mock_driver', Config: runFor ? { run_for: runFor } : {} }],
    ...extra,
  };
}

/** A job of the given type with the given groups. */
export function job(id: string, type: string, groups: TaskGroup[], extra: Partial<Job> = {}): Job {
  return { ID: id, Name: id, Type: type, Datacenters: ['dc1'], Priority: 50, TaskGroups: groups, ...extra };
}

/** T3's job: `single_task` ×3 and `multiple_tasks` ×2 with a dead prestart and a poststart sidecar. */
export function t3Job(id: string, type = 'service'): Job {
  return job(id, type, [
    group('single_task', 3, {}, '1h'),
    {
      Name: 'multiple_tasks',
      Count: 2,
      Tasks: [
        {
          Name: 'prestart',
          Driver: 'mock_driver',
          Config: { run_for: '100ms' },
          Lifecycle: { Hook: 'prestart', Sidecar: false },
        },
        {
          Name: 'sidecar',
          Driver: 'mock_driver',
          Config: { run_for: '1h' },
          Lifecycle: { Hook: 'poststart', Sidecar: true },
        },
        { Name: 'main', Driver: 'mock_driver', Config: { run_for: '1h' } },
      ],
    },
  ]);
}

/** `count` ready nodes in dc1 named `node-1`…, with fixed IDs `node-1`…. */
export function nodes(count: number): Scenario['nodes'] {
  return Array.from({ length: count }, (_, i) => ({
    id: `node-${i + 1}`,
    name: `node-${i + 1}`,
    datacenter: 'dc1',
  }));
}

/** A deterministic random source (mulberry32), for stable IDs and placement ties. */
export function seededRandom(seed = 42): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The raw_exec job E2E runs register on a real agent: `sleep 3600`. */
export function sleepJob(id: string, count = 1): Job {
  return {
    ID: id,
    Name: id,
    Type: 'service',
    Datacenters: ['*'],
    TaskGroups: [
      {
        Name: 'sleep',
        Count: count,
        Tasks: [{ Name: 'sleep', Driver: 'raw_exec', Config: { command: 'sleep', args: ['3600'] } }],
      },
    ],
  };
}
