// Scenario: Nomad service checks and crash on start in the simulator, against what a dev agent
// answered (Nomad's `command/agent/alloc_endpoint.go` `allocChecks`): the checks endpoint's shape
// (a map by check ID, Timestamp in Unix seconds, `pending` then `success`, no index header), a
// result that survives a restart with its old Timestamp until the next run, tasks that take their
// time to come back, the control API's check behaviours (fails after restart, flaps, never passes)
// and a crash on start that the group's restart policy turns into a failed allocation, whose checks
// then answer `null`.
import type { Allocation, AllocCheckStatuses, Job, TaskGroup } from '../../lib/nomad/types';
import { createScaledClock, type RunningSimulator, startSimulator } from '../../sim/index';
import { onlyTracedCheck } from './helpers/checks-answer';
import { job, nodes, seconds, seededRandom } from './helpers/fixtures';
import { call, get, put } from './helpers/http';

/** A group like the traced one: a task serving HTTP and a Nomad service with an `http` check (every 2 s). */
function checkedGroup(extra: Partial<TaskGroup> = {}, intervalS = 2): TaskGroup {
  return {
    Name: 'web',
    Count: 1,
    Tasks: [{ Name: 'server', Driver: 'mock_driver', Config: {} }],
    Services: [
      {
        Name: 'checked-web',
        Provider: 'nomad',
        PortLabel: 'http',
        Checks: [
          { Name: 'alive', Type: 'http', Path: '/', Interval: seconds(intervalS), Timeout: seconds(1) },
        ],
      },
    ],
    RestartPolicy: { Attempts: 1, Delay: seconds(3), Interval: seconds(1800), Mode: 'fail' },
    ...extra,
  };
}

const checkedJob = (extra: Partial<TaskGroup> = {}, intervalS = 2): Job =>
  job('checked', 'service', [checkedGroup(extra, intervalS)]);

describe('simulator service checks', () => {
  let sim: RunningSimulator;
  const clock = createScaledClock(0.01);

  beforeAll(async () => {
    sim = await startSimulator({ clock, random: seededRandom(3), taskRestartMs: 2_000 });
  });
  afterAll(() => sim.close());
  beforeEach(() => sim.control.reset());

  const seed = (j: Job = checkedJob()): Allocation => {
    sim.control.seed({ nodes: nodes(1), jobs: [j] });
    const [alloc] = sim.control.state().allocations({ jobId: j.ID });
    if (alloc === undefined) throw new Error('no allocation');
    return alloc;
  };
  const checksOf = async (id: string) =>
    get<AllocCheckStatuses | null>(sim.address, `/v1/client/allocation/${id}/checks`);
  const only = async (id: string) => Object.values((await checksOf(id)).json ?? {})[0];
  const restart = (id: string) => put(sim.address, `/v1/client/allocation/${id}/restart`, {});
  const serverState = (id: string) => sim.control.state().allocation(id)?.TaskStates?.['server'];
  /** Waits until the check has run again after `sinceMs` (simulated). */
  const nextRun = async (id: string, sinceMs: number) => {
    for (;;) {
      const result = await only(id);
      if (result !== undefined && result.Timestamp * 1000 > sinceMs + 1000) return result;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };

  it('answers in the traced shape: a map by check ID, Unix seconds, no index header', async () => {
    // Arrange
    const alloc = seed();

    // Act
    const response = await checksOf(alloc.ID);

    // Assert
    const [id, result] = onlyTracedCheck(response);
    expect(result).toEqual({
      ID: id,
      Check: 'alive',
      Group: alloc.Name,
      Mode: 'healthiness',
      Output: 'nomad: http ok',
      Service: 'checked-web',
      Status: 'success',
      StatusCode: 200,
      Timestamp: expect.any(Number),
    });
    // Seconds, not Nomad's usual nanoseconds: within a minute of the simulated now.
    expect(Number.isInteger(result?.Timestamp)).toBe(true);
    expect(Math.abs((result?.Timestamp ?? 0) * 1000 - clock.now())).toBeLessThan(60_000);
  });

  it('starts a newly placed allocation with a pending result, then runs it', async () => {
    // Arrange: a check every minute, so the first run (half an interval after the start, 300 ms real)
    // cannot beat the read on a busy machine, as it did with 2 s (10 ms real).
    sim.control.seed({ nodes: nodes(1), jobs: [] });
    sim.control.registerJob(checkedJob({}, 60));
    await sim.control.waitFor((s) => s.allocations({ jobId: 'checked' })[0]?.ClientStatus === 'running');
    const [alloc] = sim.control.state().allocations({ jobId: 'checked' });
    const id = alloc?.ID ?? '';

    // Act
    const first = await only(id);
    const later = await nextRun(id, clock.now() - 1000);

    // Assert
    expect(first).toMatchObject({ Status: 'pending', Output: 'nomad: waiting to run' });
    expect(first).not.toHaveProperty('StatusCode');
    expect(sim.control.state().checkRuns(id)['alive']?.[0]?.result.Status).toBe('pending');
    expect(later).toMatchObject({ Status: 'success', Output: 'nomad: http ok', StatusCode: 200 });
  });

  it('keeps the pre-restart result, Timestamp and all, until the next run; the task comes back after taskRestartMs, the allocation pending meanwhile', async () => {
    // Arrange: a check every minute, so no run falls between the restart and the task's return.
    const alloc = seed(checkedJob({}, 60));
    const before = await only(alloc.ID);

    // Act
    const wentPending = sim.control.waitFor((s) => s.allocation(alloc.ID)?.ClientStatus === 'pending');
    await restart(alloc.ID);
    const stale = await only(alloc.ID);
    await wentPending;
    await sim.control.waitFor((s) => s.allocation(alloc.ID)?.TaskStates?.['server']?.State === 'running');
    const startedMs = Date.parse(serverState(alloc.ID)?.StartedAt ?? '');
    const fresh = await nextRun(alloc.ID, startedMs);

    // Assert
    expect(stale).toEqual(before);
    const events = serverState(alloc.ID)?.Events ?? [];
    const restarting = events.find((e) => e.Type === 'Restarting')?.Time ?? 0;
    const started = events.findLast((e) => e.Type === 'Started')?.Time ?? 0;
    // 2 simulated seconds are 20 real ms here; a timer may fire a fraction of a real ms early.
    expect((started - restarting) / 1e6).toBeGreaterThanOrEqual(1_900);
    expect(fresh.Status).toBe('success');
    expect(fresh.Timestamp).toBeGreaterThan(Math.floor(startedMs / 1000));
  });

  it.each([
    {
      behaviour: { behaviour: 'failing-after-restart' } as const,
      expected: ['failure', 'failure', 'failure'],
    },
    { behaviour: { behaviour: 'flapping' } as const, expected: ['success', 'failure', 'success'] },
    { behaviour: { behaviour: 'never-passing' } as const, expected: ['failure', 'failure', 'failure'] },
  ])('answers $behaviour.behaviour after the restart', async ({ behaviour, expected }) => {
    // Arrange: a run every 10 simulated seconds (100 ms), far apart enough to see each one.
    const alloc = seed(checkedJob({}, 10));
    sim.control.setCheckBehaviour({ allocationId: alloc.ID }, 'alive', behaviour);
    await restart(alloc.ID);
    await sim.control.waitFor((s) => s.allocation(alloc.ID)?.TaskStates?.['server']?.State === 'running');

    // Act: the first three runs that found the service up (a refused connection means it was down),
    // from the simulator's record of every run: polling the HTTP answer missed one on a busy machine.
    const startedMs = Date.parse(serverState(alloc.ID)?.StartedAt ?? '');
    const upRuns = () =>
      (sim.control.state().checkRuns(alloc.ID)['alive'] ?? []).filter(
        (run) => run.time >= startedMs && !run.result.Output?.includes('connection refused'),
      );
    while (upRuns().length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    const statuses = upRuns()
      .slice(0, 3)
      .map((run) => run.result.Status);
    const answered = await only(alloc.ID);
    const recorded = (sim.control.state().checkRuns(alloc.ID)['alive'] ?? []).map((run) => run.result);

    // Assert
    expect(statuses).toEqual(expected);
    // What the endpoint answers is the newest recorded run (or one the record has just gained).
    expect(recorded.slice(-2)).toContainEqual(answered);
    if (behaviour.behaviour !== 'flapping')
      expect(await only(alloc.ID)).toMatchObject({ Output: 'Internal Server Error', StatusCode: 500 });
  });

  it('answers null for an allocation without Nomad checks, 404 for an unknown one', async () => {
    // Arrange
    const plain = seed(job('plain', 'service', [checkedGroup({ Services: [] })]));

    // Act
    const none = await checksOf(plain.ID);
    const unknown = await checksOf('7a6c7e4e-0000-0000-0000-000000000000');

    // Assert
    expect(none.text).toBe('null');
    expect(unknown.status).toBe(404);
    expect(unknown.text).toBe('Unknown allocation "7a6c7e4e-0000-0000-0000-000000000000"');
  });

  it('crashes on start under the restart policy: a restart after its delay, then the allocation fails and its checks answer null', async () => {
    // Arrange: attempts = 1, delay = 3s, mode = "fail", as traced.
    const alloc = seed();
    sim.control.crashOnStart({ allocationId: alloc.ID }, { exitCode: 3 });

    // Act
    await restart(alloc.ID);
    await sim.control.waitFor((s) => s.allocation(alloc.ID)?.ClientStatus === 'failed', 5_000);
    const after = sim.control.state().allocation(alloc.ID);
    const checks = await checksOf(alloc.ID);

    // Assert
    const state = after?.TaskStates?.['server'];
    const trail = (state?.Events ?? []).map((e) => `${e.Type}: ${e.DisplayMessage}`);
    expect(trail.slice(trail.indexOf('Restart Signaled: User requested running tasks to restart'))).toEqual([
      'Restart Signaled: User requested running tasks to restart',
      'Terminated: Exit Code: 130, Signal: 2',
      'Restarting: Task restarting in 0s',
      'Started: Task started by client',
      'Terminated: Exit Code: 3',
      expect.stringMatching(/^Restarting: Task restarting in 3(\.\d+)?s$/),
      'Started: Task started by client',
      'Terminated: Exit Code: 3',
      'Not Restarting: Exceeded allowed attempts 1 in interval 30m0s and mode is "fail"',
    ]);
    expect(state).toMatchObject({ State: 'dead', Failed: true, Restarts: 2 });
    expect(after?.ClientDescription).toBe('Failed tasks');
    expect(checks.status).toBe(200);
    expect(checks.text).toBe('null');
  });

  it('sets behaviours and crashes over HTTP, refusing a bad body with the field named', async () => {
    // Arrange
    const alloc = seed();

    // Act
    const okCheck = await put(sim.address, '/_sim/checks', {
      jobId: 'checked',
      check: 'alive',
      behaviour: 'flapping',
      flaps: 2,
    });
    const okCrash = await put(sim.address, '/_sim/crash', { allocationId: alloc.ID, task: 'server' });
    const badBehaviour = await put(sim.address, '/_sim/checks', {
      allocationId: alloc.ID,
      check: 'alive',
      behaviour: 'sometimes',
    });
    const unknownJob = await call(sim.address, '/_sim/crash', { method: 'PUT', body: { jobId: 'nope' } });

    // Assert
    expect([okCheck.status, okCrash.status]).toEqual([200, 200]);
    expect(badBehaviour.status).toBe(400);
    expect(badBehaviour.text).toBe(
      'Invalid behaviour "sometimes": expected "passing", "failing-after-restart", "flapping", "never-passing"',
    );
    expect(unknownJob.status).toBe(404);
    expect(unknownJob.text).toBe('Unknown job "nope" in namespace "default"');
  });
});
