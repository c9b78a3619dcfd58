// Scenario: `TaskStates[task].StartedAt`, which `-started-before` reads, moves at every start of a
// task, as Nomad's task runner sets it whenever a task goes running from another state
// (client/allocrunner/taskrunner/task_runner.go updateStateImpl): an in-place restart (each mode
// restarts its own tasks only), a restart by the restart policy after a crash, and the start of a
// replacement placed by a stop, whose predecessor keeps its own.
import type { Allocation, TaskState } from '../../lib/nomad/types';
import { type RunningSimulator, startSimulator } from '../../sim/index';
import { job, nodes, t3Job } from './helpers/fixtures';
import { put } from './helpers/http';
import { TEST_TIME_SCALE } from './helpers/target';

let sim: RunningSimulator;
beforeEach(async () => {
  sim = await startSimulator({
    timeScale: TEST_TIME_SCALE,
    scenario: { nodes: nodes(2), jobs: [t3Job('t3')] },
  });
});
afterEach(async () => sim.close());

/** Lets `ms` simulated milliseconds pass. */
const sleepSimulated = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms * TEST_TIME_SCALE));
const allocation = (id: string): Allocation | undefined => sim.control.state().allocation(id);
const startedMs = (state: TaskState | undefined): number => Date.parse(state?.StartedAt ?? '');
/**
 * The simulated ms of the task's newest event of `type`: Nomad's event times are ns, past what a
 * double holds exactly, so the division is rounded.
 */
const lastEventMs = (state: TaskState | undefined, type: string): number =>
  Math.round((state?.Events?.findLast((e) => e.Type === type)?.Time ?? Number.NaN) / 1e6);

function multiTasks(): Allocation {
  const alloc = sim.control
    .state()
    .allocations({ jobId: 't3' })
    .find((a) => a.TaskGroup === 'multiple_tasks');
  if (alloc === undefined) throw new Error('no multiple_tasks allocation');
  return alloc;
}

/** Restarts `id` in place and waits until its `tasks` run again. */
async function restartInPlace(id: string, body: unknown, tasks: string[]): Promise<void> {
  const res = await put(sim.address, `/v1/client/allocation/${id}/restart`, body);
  expect(res.status).toBe(200);
  await sim.control.waitFor((s) => {
    const states = s.allocation(id)?.TaskStates ?? {};
    return tasks.every((t) => states[t]?.State === 'running' || states[t]?.State === 'dead');
  });
}

describe('simulator: StartedAt', () => {
  it.each([
    { mode: 'running tasks', body: { AllTasks: false }, moved: ['main', 'sidecar'], kept: ['prestart'] },
    { mode: 'all tasks', body: { AllTasks: true }, moved: ['main', 'prestart', 'sidecar'], kept: [] },
    { mode: 'one task', body: { TaskName: 'sidecar' }, moved: ['sidecar'], kept: ['main', 'prestart'] },
  ])(
    'moves at an in-place restart of $mode, for the tasks it restarts only',
    async ({ body, moved, kept }) => {
      // Arrange
      const before = multiTasks();
      await sleepSimulated(2_000);

      // Act
      await restartInPlace(before.ID, body, [...moved, ...kept]);
      await sim.control.waitFor((s) => s.allocation(before.ID)?.TaskStates?.['main']?.State === 'running');

      // Assert: each restarted task started again after its restart was signalled.
      const after = allocation(before.ID)?.TaskStates ?? {};
      for (const task of moved) {
        expect(startedMs(after[task])).toBeGreaterThan(startedMs(before.TaskStates?.[task]));
        expect(startedMs(after[task])).toBeGreaterThanOrEqual(lastEventMs(after[task], 'Restart Signaled'));
        expect(startedMs(after[task])).toBe(lastEventMs(after[task], 'Started'));
      }
      for (const task of kept) expect(after[task]?.StartedAt).toBe(before.TaskStates?.[task]?.StartedAt);
    },
  );

  it('moves at each restart the restart policy makes after a crash', async () => {
    // Arrange: the task crashes 1 s after each start; the policy restarts it after 1 s.
    sim.control.registerJob(
      job('crashy', 'service', [
        {
          Name: 'g',
          Count: 1,
          RestartPolicy: { Attempts: 2, Interval: 3_600_000_000_000, Delay: 1_000_000_000, Mode: 'fail' },
          Tasks: [{ Name: 'main', Driver: 'mock_driver', Config: { run_for: '1h' } }],
        },
      ]),
    );
    await sim.control.waitFor((s) => s.allocations({ jobId: 'crashy' })[0]?.ClientStatus === 'running');
    const [alloc] = sim.control.state().allocations({ jobId: 'crashy' });
    const id = alloc?.ID ?? '';
    const first = startedMs(alloc?.TaskStates?.['main']);
    sim.control.crashOnStart({ allocationId: id }, { afterMs: 1_000 });

    // Act: the next start (a user restart), then the policy's restart after its crash.
    await restartInPlace(id, { AllTasks: false }, ['main']);
    const second = startedMs(allocation(id)?.TaskStates?.['main']);
    await sim.control.waitFor((s) => (s.allocation(id)?.TaskStates?.['main']?.Restarts ?? 0) >= 2);
    await sim.control.waitFor((s) => startedMs(s.allocation(id)?.TaskStates?.['main']) > second);
    const state = allocation(id)?.TaskStates?.['main'];

    // Assert
    expect(second).toBeGreaterThan(first);
    expect(startedMs(state)).toBeGreaterThanOrEqual(lastEventMs(state, 'Restarting'));
    expect(startedMs(state)).toBe(lastEventMs(state, 'Started'));
  });

  it('is set on a replacement when it starts, after the stop; the stopped allocation keeps its own', async () => {
    // Arrange
    const old = sim.control
      .state()
      .allocations({ jobId: 't3' })
      .find((a) => a.TaskGroup === 'single_task');
    const oldStarted = old?.TaskStates?.['main']?.StartedAt;
    await sleepSimulated(2_000);

    // Act
    const stop = await put(sim.address, `/v1/allocation/${old?.ID}/stop`);
    await sim.control.waitFor((s) => {
      const next = s.allocation(old?.ID ?? '')?.NextAllocation;
      return next !== undefined && next !== '' && s.allocation(next)?.ClientStatus === 'running';
    });
    const stopped = allocation(old?.ID ?? '');
    const replacement = allocation(stopped?.NextAllocation ?? '');

    // Assert
    expect(stop.status).toBe(200);
    const stopMs = sim.control.requestLog().find((e) => e.path.endsWith('/stop'))?.time ?? Number.NaN;
    expect(stopped?.TaskStates?.['main']?.StartedAt).toBe(oldStarted);
    expect(startedMs(replacement?.TaskStates?.['main'])).toBeGreaterThan(stopMs);
    expect(startedMs(replacement?.TaskStates?.['main'])).toBe(
      lastEventMs(replacement?.TaskStates?.['main'], 'Started'),
    );
  });
});
