/**
 * Test harness for the engine: a simulator on 127.0.0.1 driven over real HTTP by the real
 * Nomad client, the T3/T4/T8 job fixtures of Nomad's `command/job_restart_test.go`, and small
 * readers of the result.
 */
import { NomadClient } from '../../../lib/nomad/index';
import type { Allocation, Deployment, Job, Task, TaskGroup, TaskState } from '../../../lib/nomad/types';
import type { ProgressEvent } from '../../../lib/restart/events';
import type { Answer, Question } from '../../../lib/restart/questions';
import {
  type AclSpec,
  createScaledClock,
  type NodeSpec,
  type RunningSimulator,
  type SimulatorOptions,
  startSimulator,
} from '../../../sim/index';

/** Real ms per simulated ms: a simulated second takes 10 ms. */
export const TIME_SCALE = 0.01;

/** A running simulator plus a client pointed at it. */
export interface Harness {
  readonly sim: RunningSimulator;
  readonly client: NomadClient;
  /** The simulator's clock (simulated Unix ms), used as the engine's clock so times compare. */
  readonly now: () => number;
  /**
   * Waits simulated ms on the simulator's timers, or less when `signal` aborts: the steps' waits
   * with {@link Harness.now} as their clock, so a stalled event loop moves both alike.
   */
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  close(): Promise<void>;
}

/** What a harness's simulator starts with. */
export interface HarnessSetup {
  readonly nodes?: NodeSpec[];
  readonly jobs?: Job[];
  readonly acl?: AclSpec;
  readonly namespaces?: string[];
}

/** Starts a simulator with `nodes` and `jobs` already placed and running. */
export async function startHarness(setup: HarnessSetup, extra: HarnessExtra = {}): Promise<Harness> {
  const { token, ...simOptions } = extra;
  const clock = createScaledClock(TIME_SCALE);
  const sim = await startSimulator({
    clock,
    scenario: {
      nodes: setup.nodes ?? [{ name: 'node1' }],
      jobs: setup.jobs ?? [],
      ...(setup.namespaces === undefined ? {} : { namespaces: setup.namespaces }),
      ...(setup.acl === undefined ? {} : { acl: setup.acl }),
    },
    ...simOptions,
  });
  const client = clientFor(sim, token);
  return {
    sim,
    client,
    now: () => clock.now(),
    sleep: (ms, signal) =>
      new Promise((resolve) => {
        const cancel = clock.setTimer(ms, done);
        function done(): void {
          cancel();
          signal.removeEventListener('abort', done);
          resolve();
        }
        signal.addEventListener('abort', done, { once: true });
      }),
    async close() {
      await client.close();
      await sim.close();
    },
  };
}

/** What a test may change about its simulator and client (see {@link startHarness}). */
export type HarnessExtra = Partial<SimulatorOptions> & { token?: string };

/** The harness of the running test: the test starts it, an `afterEach` closes it. */
export interface HarnessPerTest {
  /** The harness the running test started; throws when it started none. */
  readonly current: Harness;
  /** Starts this test's harness (see {@link startHarness}), closing the one it started before. */
  start(setup: HarnessSetup, extra?: HarnessExtra): Promise<Harness>;
  /** Starts this test's harness with `job` placed (beside `setup`), once every allocation of it runs. */
  startRunning(job: Job, extra?: HarnessExtra, setup?: Omit<HarnessSetup, 'jobs'>): Promise<Harness>;
}

/**
 * One harness per test, closed after each: call it where a file (or a `describe`) needs a
 * simulator, so that no test leaves one listening when it fails half-way.
 */
export function harnessPerTest(): HarnessPerTest {
  let current: Harness | undefined;
  afterEach(async () => {
    const started = current;
    current = undefined;
    await started?.close();
  });
  const start = async (setup: HarnessSetup, extra?: HarnessExtra): Promise<Harness> => {
    await current?.close();
    current = await startHarness(setup, extra);
    return current;
  };
  return {
    get current(): Harness {
      if (current === undefined) throw new Error('this test started no harness');
      return current;
    },
    start,
    async startRunning(job, extra, setup) {
      const h = await start({ ...setup, jobs: [job] }, extra);
      await waitAllRunning(h, job.ID, allocationCount(job));
      return h;
    },
  };
}

/** How many allocations a job asks for: the sum of its groups' counts (one node's worth for a system job). */
export function allocationCount(job: Job): number {
  return (job.TaskGroups ?? []).reduce((sum, group) => sum + (group.Count ?? 0), 0);
}

/** A client for the simulator with tiny retry delays, optionally with an ACL token. */
export function clientFor(sim: RunningSimulator, token?: string): NomadClient {
  return NomadClient.create({
    address: sim.address,
    ...(token === undefined ? {} : { token }),
    retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 5 },
  });
}

/** Collects emitted events. */
export function recorder(): { events: ProgressEvent[]; emit: (event: ProgressEvent) => void } {
  const events: ProgressEvent[] = [];
  return { events, emit: (event) => events.push(event) };
}

/** An `ask` that fails the test: `-yes` runs must never ask. */
export const neverAsk = async (question: Question): Promise<Answer> => {
  throw new Error(`unexpected question: ${question.lines.join(' ')}`);
};

/** The `mock_driver` task of the fixtures; no `run_for` means it runs until stopped. */
export function task(name: string, extra: Partial<Task> = {}): Task {
  return { Name: name, Driver: 'mock_driver', Config: {}, ...extra };
}

/**
 * T3's job (`TestJobRestartCommand_Run`): group `single_task` (3 × `main`) and group `multiple_tasks` (2 ×
 * a finished prestart task, a poststart sidecar and `main`): 5 running allocations.
 */
/** A prestart task that runs to its end (100 ms, exit 0) before the main task starts. */
export function prestartTask(): Task {
  return task('prestart', {
    Config: { run_for: '100ms', exit_code: 0 },
    Lifecycle: { Hook: 'prestart', Sidecar: false },
  });
}

export function t3Job(type: 'batch' | 'service'): Job {
  return {
    ID: `test_job_${type}`,
    Type: type,
    Region: 'global',
    Datacenters: ['dc1'],
    Priority: 1,
    TaskGroups: [
      { Name: 'single_task', Count: 3, Tasks: [task('main')] },
      {
        Name: 'multiple_tasks',
        Count: 2,
        Tasks: [
          prestartTask(),
          task('sidecar', { Lifecycle: { Hook: 'poststart', Sidecar: true } }),
          task('main'),
        ],
      },
    ],
  };
}

/** A one-group job of `count` allocations. */
export function simpleJob(id: string, type: string, count: number, group = 'group1'): Job {
  return {
    ID: id,
    Type: type,
    Region: 'global',
    Datacenters: ['dc1'],
    Priority: 50,
    TaskGroups: [{ Name: group, Count: count, Tasks: [task('task1')] }],
  };
}

/** `job` as an operator's update changes it: each task now runs for an hour, so Nomad replaces its allocations. */
export function updatedJob(job: Job): Job {
  const update = (group: TaskGroup): TaskGroup => ({
    ...group,
    Tasks: (group.Tasks ?? []).map((t) => ({ ...t, Config: { ...t.Config, run_for: '1h' } })),
  });
  return { ...job, TaskGroups: (job.TaskGroups ?? []).map(update) };
}

/** Allocations of a job as the simulator holds them (with `TaskStates`). */
export function allocationsOf(h: Harness, jobId: string): Allocation[] {
  return h.sim.control.state().allocations({ jobId });
}

/** Whether the task got a `Restart Signaled` event (the client's record of a restart request). */
export function taskRestartSignaled(state: TaskState): boolean {
  return (state.Events ?? []).some((event) => event.Type === 'Restart Signaled');
}

/** `group.task` of every task that got a `Restart Signaled` event, with its allocation. */
export function restartedTasks(allocations: readonly Allocation[]): string[] {
  const restarted: string[] = [];
  for (const allocation of allocations) {
    for (const [name, state] of Object.entries(allocation.TaskStates ?? {})) {
      if (taskRestartSignaled(state)) {
        restarted.push(`${allocation.ID}:${allocation.TaskGroup}.${name}`);
      }
    }
  }
  return restarted;
}

/**
 * Restarts allocation `id` of `jobId` in place (as an operator would, outside any run) and waits
 * until its task `task1` runs again, started after `afterMs` (simulated Unix ms): an allocation
 * that is fresh for `-started-before afterMs`.
 */
export async function restartAfter(h: Harness, jobId: string, id: string, afterMs: number): Promise<void> {
  await h.client.allocations().restart(id, {});
  await h.sim.control.waitFor((s) =>
    s.allocations({ jobId }).some((a) => {
      const state = a.ID === id ? a.TaskStates?.['task1'] : undefined;
      const started = state?.StartedAt == null ? Number.NaN : Date.parse(state.StartedAt);
      return state?.State === 'running' && started > afterMs;
    }),
  );
}

/** Waits until every allocation of the job that should run is `running`. */
export async function waitAllRunning(
  h: Harness,
  jobId: string,
  count: number,
  namespace?: string,
): Promise<void> {
  const filter = namespace === undefined ? { jobId } : { jobId, namespace };
  await h.sim.control.waitFor(
    (state) =>
      state.allocations(filter).filter((a) => a.DesiredStatus === 'run' && a.ClientStatus === 'running')
        .length === count,
    5_000,
  );
}

/**
 * Marks the job's deployment `running` again, as an operator's new deployment would be, and
 * returns it. The registration's own deployment is let end first: its health timer would
 * otherwise mark it successful behind the test's back while a slow machine starts the run.
 */
export async function holdDeploymentRunning(h: Harness, jobId: string): Promise<Deployment | undefined> {
  await h.sim.control.waitFor(
    (state) => state.deployments({ jobId }).every((d) => d.Status === 'successful'),
    10_000,
  );
  const [deployment] = h.sim.control.state().deployments({ jobId });
  h.sim.control.setDeploymentStatus(deployment?.ID ?? 'missing', 'running');
  return deployment;
}

/** Makes Nomad refuse the run's first in-place restart with a 400 `body`: a run that ends with errors. */
export function refuseFirstRestart(h: Harness, body: string): void {
  h.sim.control.injectFault({ pathSuffix: '/restart', method: 'PUT', nth: 1, status: 400, body });
}

/** Events of one type, narrowed. */
export function eventsOf<T extends ProgressEvent['type']>(
  events: readonly ProgressEvent[],
  type: T,
): Extract<ProgressEvent, { type: T }>[] {
  return events.filter((event): event is Extract<ProgressEvent, { type: T }> => event.type === type);
}
