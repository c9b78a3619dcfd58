// Scenario: -wait-healthy through the synthesized workflow (local engine, real handlers) against
// the simulator's Nomad service checks, read back from its request log and check history:
// - in place, each batch's next restart request comes after the previous batch's check passed
//   again and then stayed passing for -min-healthy-time, and a restart step that takes longer
//   than the clock-skew allowance does not hide the batch's own restarts from the gate;
// - a crash on start that keeps restarting ends an unattended -yes -max-errors 0 run with the
//   deadline error before batch 2; one that fails its restart policy is reported failed at once;
// - a flapping check restarts the -min-healthy-time count (the verbose line says so);
// - with -reschedule, the replacement's checks are waited for.
// Times: the steps run on the simulator's clock (its `now` and its timers, 100 simulated ms per
// real ms), so every time below is simulated. On the real clock the gate's -min-healthy-time and
// deadline ran 100 times slower than the allocations: an event loop stalled by a starved machine
// let a crash-looping allocation live through whole restart delays and check intervals between
// two looks, and the verdict depended on the machine's speed.

import type { RestartOptions } from '../../../lib/restart/options';
import { TaskStates } from '../../../lib/workflow/state-names';
import { restartOptions } from '../../fixtures/restart-options';
import { checkedJob, firstPassAfter } from '../../steps/health/helpers/health-fixtures';
import {
  allocationsOf,
  eventsOf,
  type Harness,
  startHarness,
  waitAllRunning,
} from '../../steps/helpers/harness';
import { runWorkflow, type WorkflowRun } from './helpers/workflow-harness';

const RESTART = /^\/v1\/client\/allocation\/([^/]+)\/restart$/;
const CHECKS = /^\/v1\/client\/allocation\/([^/]+)\/checks$/;
const short = (id: string) => id.slice(0, 8);

/** Runs the restart with the steps on the simulator's clock. */
function runOnSimulatedTime(target: Harness, options: RestartOptions): Promise<WorkflowRun> {
  return runWorkflow(target, options, { now: target.now, sleep: target.sleep });
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** `{ time, id }` of each request to `route`, in order (simulated ms). */
function requests(target: Harness, route: RegExp): { time: number; id: string }[] {
  return target.sim.control.requestLog().flatMap((r) => {
    const id = route.exec(r.path)?.[1];
    return id === undefined || r.status !== 200 ? [] : [{ time: r.time, id }];
  });
}

/** Simulated ms of the allocation's latest `Started` event of task `server`. */
function lastStartMs(target: Harness, id: string): number {
  const events = target.sim.control.state().allocation(id)?.TaskStates?.['server']?.Events ?? [];
  return (events.findLast((e) => e.Type === 'Started')?.Time ?? 0) / 1e6;
}

describe('-wait-healthy through the workflow', () => {
  it('starts each batch only after the previous one passed its checks for -min-healthy-time', async () => {
    // Arrange: tasks take half a second to come back and the check runs every minute (longer
    // than -min-healthy-time), so the pre-restart success is still there, stale, when they are
    // back (as traced): taking it would start the next batch too early.
    const job = checkedJob('healthy', 3, { intervalS: 60 });
    h = await startHarness({ jobs: [job] }, { taskRestartMs: 500 });
    await waitAllRunning(h, job.ID, 3);
    const gate = { minHealthyTimeNs: 30e9, healthyDeadlineNs: 2_000e9 };

    // Act
    const run = await runOnSimulatedTime(h, restartOptions(job.ID, { waitHealthy: gate }));

    // Assert
    expect(run.exitCode).toBe(0);
    const restarts = requests(h, RESTART);
    expect(restarts).toHaveLength(3);
    for (const [i, restart] of restarts.slice(0, -1).entries()) {
      const passed = firstPassAfter(h.sim.control, restart.id, lastStartMs(h, restart.id));
      expect(passed).toBeDefined();
      expect(restarts[i + 1]?.time).toBeGreaterThanOrEqual((passed ?? Infinity) + 30_000);
    }
    expect(eventsOf(run.events, 'health-waiting').map((e) => e.count)).toEqual([1, 1, 1]);
    expect(eventsOf(run.events, 'allocation-healthy').map((e) => e.allocationId)).toEqual(
      restarts.map((r) => r.id),
    );
    // Each restarted allocation's checks were read. How often is test/steps/await-health.test.ts's
    // to assert, on the gate's own clock: the log stamps answers, and on a loaded machine one
    // answer held up in the event loop brought two reads closer than the gate sent them.
    const reads = requests(h, CHECKS);
    for (const { id } of restarts) expect(reads.filter((r) => r.id === id).length).toBeGreaterThan(0);
  });

  it("counts the batch's restarts from before its requests, however long the restart step takes", async () => {
    // Arrange: each read of the steps' clock in "Restart batch" moves it 3 s on, so the step
    // ends longer after its first read than the 5 s clock-skew allowance (a slow agent).
    const job = checkedJob('slow-step', 1);
    h = await startHarness({ jobs: [job] });
    await waitAllRunning(h, job.ID, 1);
    const target = h;
    let ahead = 0;
    let inRestart = false;
    const now = () => {
      const at = target.now() + ahead;
      if (inRestart) ahead += 3_000;
      return at;
    };

    // Act
    const run = await runWorkflow(
      h,
      restartOptions(job.ID, { waitHealthy: { minHealthyTimeNs: 10e9, healthyDeadlineNs: 300e9 } }),
      {
        now,
        sleep: h.sleep,
        interceptInvocation: async (state, invoke) => {
          inRestart = state === TaskStates.restartBatch;
          try {
            return await invoke();
          } finally {
            inRestart = false;
          }
        },
      },
    );

    // Assert: healthy, not "the restart is not in its task states yet" at the deadline.
    expect(run.errors).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(eventsOf(run.events, 'allocation-healthy')).toHaveLength(1);
  });

  it('stops an unattended -yes -max-errors 0 run before batch 2 when a batch crashes on start', async () => {
    // Arrange: the restarted task exits 3 at every start and its policy keeps restarting it.
    const job = checkedJob('crashing', 2, {
      restartPolicy: { Attempts: 1000, Delay: 1e9, Interval: 1800e9, Mode: 'delay' },
    });
    h = await startHarness({ jobs: [job] });
    await waitAllRunning(h, job.ID, 2);
    h.sim.control.crashOnStart({ jobId: job.ID }, { task: 'server', exitCode: 3 });

    // Act
    const run = await runOnSimulatedTime(
      h,
      restartOptions(job.ID, {
        maxErrors: { value: 0, percent: false },
        waitHealthy: { minHealthyTimeNs: 10e9, healthyDeadlineNs: 150e9 },
      }),
    );

    // Assert
    const restarts = requests(h, RESTART);
    expect(run.exitCode).toBe(1);
    expect(restarts).toHaveLength(1);
    const first = short(restarts[0]?.id ?? '');
    expect(run.errors).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Error restarting allocation "${first}": Allocation "${first}" did not become healthy within 2m30s: (task "server" (is "pending" \\(Restarting: Task restarting in [0-9.]+m?s\\)|has not started again since the restart)|check "http" (is "failure": nomad: Get "http://127\\.0\\.0\\.1:\\d+/": dial tcp 127\\.0\\.0\\.1:\\d+: connect: connection refused|has not run since the task started))$`,
        ),
      ),
    ]);
    expect(eventsOf(run.events, 'max-errors-exceeded')).toHaveLength(1);
    const untouched = allocationsOf(h, job.ID).filter((a) => a.ID !== restarts[0]?.id);
    expect(untouched.flatMap((a) => a.TaskStates?.['server']?.Events ?? []).map((e) => e.Type)).not.toContain(
      'Restart Signaled',
    );
  });

  it('reports an allocation whose restart policy gives up as failed at once, not at the deadline', async () => {
    // Arrange: one attempt, then "Not Restarting" (the traced crash).
    const job = checkedJob('failing', 1);
    h = await startHarness({ jobs: [job] });
    await waitAllRunning(h, job.ID, 1);
    h.sim.control.crashOnStart({ jobId: job.ID }, { exitCode: 3 });
    const [alloc] = allocationsOf(h, job.ID);

    // Act
    const run = await runOnSimulatedTime(
      h,
      restartOptions(job.ID, { waitHealthy: { minHealthyTimeNs: 10e9, healthyDeadlineNs: 300e9 } }),
    );

    // Assert: the failure's own error, which only the gate's "failed" verdict gives (at the 5 min
    // deadline it would say "did not become healthy within 5m0s").
    const id = short(alloc?.ID ?? '');
    expect(run.exitCode).toBe(1);
    expect(run.errors).toEqual([
      `Error restarting allocation "${id}": Allocation "${id}" failed before it became healthy: task "server" failed (Not Restarting: Exceeded allowed attempts 1 in interval 30m0s and mode is "fail")`,
    ]);
  });

  it('restarts the -min-healthy-time count when a check flaps', async () => {
    // Arrange: after the restart the check passes, fails, passes, fails, then passes; it runs
    // every minute, so the polls (every 2 s) see each run. Two flaps: the first pass may share
    // the restarted task's start second (a stale result to the gate, as Nomad's seconds make it).
    const job = checkedJob('flapping', 1, { intervalS: 60 });
    h = await startHarness({ jobs: [job] });
    await waitAllRunning(h, job.ID, 1);
    h.sim.control.setCheckBehaviour({ jobId: job.ID }, 'http', { behaviour: 'flapping', flaps: 2 });

    // Act
    const run = await runOnSimulatedTime(
      h,
      restartOptions(job.ID, {
        verbose: true,
        waitHealthy: { minHealthyTimeNs: 100e9, healthyDeadlineNs: 2_000e9 },
      }),
    );

    // Assert
    expect(run.exitCode).toBe(0);
    const [reset] = eventsOf(run.events, 'health-reset');
    const [healthy] = eventsOf(run.events, 'allocation-healthy');
    expect(reset?.reason).toBe('check "http" is "failure": Internal Server Error');
    expect((healthy?.time ?? 0) - (reset?.time ?? Infinity)).toBeGreaterThanOrEqual(100_000);
  });

  it("waits for the replacement's checks with -reschedule", async () => {
    // Arrange
    const job = checkedJob('replaced', 1);
    h = await startHarness({ jobs: [job] });
    await waitAllRunning(h, job.ID, 1);
    const [original] = allocationsOf(h, job.ID);

    // Act
    const run = await runOnSimulatedTime(
      h,
      restartOptions(job.ID, {
        reschedule: true,
        waitHealthy: { minHealthyTimeNs: 30e9, healthyDeadlineNs: 2_000e9 },
      }),
    );

    // Assert
    expect(run.exitCode).toBe(0);
    const replacement = h.sim.control.state().allocation(original?.ID ?? '')?.NextAllocation ?? '';
    const healthy = eventsOf(run.events, 'allocation-healthy');
    expect(healthy).toEqual([expect.objectContaining({ allocationId: replacement, checks: 1 })]);
    // The gate and the simulator share the clock: its verdict came -min-healthy-time after the
    // replacement's check first passed, read from the replacement itself.
    const passed = firstPassAfter(h.sim.control, replacement, lastStartMs(h, replacement));
    expect(passed).toBeDefined();
    expect(healthy[0]?.time).toBeGreaterThanOrEqual((passed ?? Infinity) + 30_000);
    expect(requests(h, CHECKS).filter((r) => r.id === replacement).length).toBeGreaterThan(0);
    expect(requests(h, CHECKS).filter((r) => r.id === original?.ID)).toEqual([]);
  });
});
