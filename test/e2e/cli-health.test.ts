// Scenario: -wait-healthy through the real command (a subprocess), against the simulator or the
// dev agent at NOMAD_E2E_ADDR. The fixture is the traced one: a raw_exec python http.server on a
// dynamic port behind a `provider = "nomad"` service with an `http` check every 2 s.
// - in place, -batch-size 1: each batch waits for its allocation's check to pass again and stay
//   passing for -min-healthy-time before the next restart (simulator: its request log and check
//   runs; agent: the task events), and the checks endpoint has the shape the simulator serves;
// - -dry-run shows the gate, its timings and the reads it would make;
// - a crash on start (simulator: its control API; agent: a task that exits 3 once restarted)
//   stops -yes -max-errors 0 before batch 2 with the deadline error; a restart policy that gives
//   up is reported at once, and that allocation's checks then answer null;
// - a flapping check (simulator: control API; agent: a server that answers 500 once after the
//   restart) restarts the -min-healthy-time count, seen in -output=json -verbose events;
// - -reschedule -wait-healthy waits for the replacement's checks.
// Timings: the agent's are real; the simulator runs 100 simulated ms per real ms.
import { existsSync } from 'node:fs';
import type { AllocListStub, Job, TaskGroup } from '../../lib/nomad/types';
import type { ProgressEvent } from '../../lib/restart/events';
import { onlyTracedCheck } from '../sim/helpers/checks-answer';
import { get } from '../sim/helpers/http';
import { firstPassAfter } from '../steps/health/helpers/health-fixtures';
import { TIME_SCALE } from '../steps/helpers/harness';
import { FLAPPING } from './helpers/consul-fixtures';
import { E2E_ADDR, type E2eTarget, openE2e, wasRestarted } from './helpers/e2e-target';
import { type CliResult, healthGatedRestartLines, healthGateStoppedLines, runCli } from './helpers/run-cli';

const PYTHON = '/usr/bin/python3';
const SECOND = 1e9;
/** The gate's timings: real seconds on an agent, a tenth of a second or so on the simulator. */
const T = E2E_ADDR
  ? { min: '2s', minMs: 2_000, deadline: '60s', crashDeadline: '12s', flapMin: '5s', flapMinMs: 5_000 }
  : { min: '300ms', minMs: 300, deadline: '20s', crashDeadline: '1.5s', flapMin: '1s', flapMinMs: 1_000 };
/** Real ms as the target's event times count them (ns on both; the simulator's run 100x faster). */
const targetNs = (realMs: number) => (E2E_ADDR ? realMs * 1e6 : ((realMs - 10) / TIME_SCALE) * 1e6);

const SERVE = `exec ${PYTHON} -m http.server "$NOMAD_PORT_http" --bind 127.0.0.1`;
/** Exits 3 once restarted (the task directory outlives a restart): the traced crash on start. */
const CRASH = `if [ -e "$NOMAD_TASK_DIR/started" ]; then exit 3; fi; touch "$NOMAD_TASK_DIR/started"; ${SERVE}`;

/** The traced fixture: `count` allocations of a server behind a Nomad `http` check. */
function serverJob(
  id: string,
  count: number,
  script: string,
  restartPolicy?: TaskGroup['RestartPolicy'],
): Job {
  const group = {
    Name: 'web',
    Count: count,
    Networks: [{ DynamicPorts: [{ Label: 'http' }] }],
    RestartPolicy: restartPolicy ?? { Attempts: 1, Delay: 3 * SECOND, Interval: 1800 * SECOND, Mode: 'fail' },
    Services: [
      {
        Name: `${id}-web`,
        Provider: 'nomad',
        PortLabel: 'http',
        Checks: [{ Name: 'http', Type: 'http', Path: '/', Interval: 2 * SECOND, Timeout: SECOND }],
      },
    ],
    Tasks: [{ Name: 'server', Driver: 'raw_exec', Config: { command: '/bin/sh', args: ['-c', script] } }],
  } as TaskGroup;
  return { ID: id, Type: 'service', Datacenters: ['dc1'], Priority: 50, TaskGroups: [group] };
}

const short = (id: string) => id.slice(0, 8);
const lines = (text: string) => text.split('\n');
const gate = (min = T.min, deadline = T.deadline) => [
  '-wait-healthy',
  '-min-healthy-time',
  min,
  '-healthy-deadline',
  deadline,
];
const events = (result: CliResult) =>
  lines(result.stdout)
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as ProgressEvent);
/** Allocations to run, newest first (ties by ID): the order the command handles them in. */
const inOrder = (all: AllocListStub[]) =>
  all
    .filter((a) => a.DesiredStatus === 'run')
    .sort((a, b) => b.CreateIndex - a.CreateIndex || (a.ID < b.ID ? -1 : 1));
/** Unix ns of the task's last event of `type` (a restarted task: its new start). */
const lastEvent = (a: AllocListStub | undefined, type: string) =>
  (a?.TaskStates?.['server']?.Events ?? []).findLast((e) => e.Type === type)?.Time ?? Number.NaN;

const noPython = E2E_ADDR !== undefined && !existsSync(PYTHON);
/** Runs the group where the fixture can run: the agent needs python3 for its server. */
function describeHealth(name: string, fn: () => void): void {
  if (noPython) console.log(`not run against ${E2E_ADDR}: "${name}" needs ${PYTHON} for the checked server`);
  else describe(name, fn);
}

describeHealth('-wait-healthy in place, one allocation per batch', () => {
  let target: E2eTarget;
  let order: AllocListStub[];
  let dry: CliResult;
  let result: CliResult;
  let after: AllocListStub[];
  beforeAll(async () => {
    // Arrange
    target = await openE2e({ jobs: [serverJob('web', 2, SERVE)] });
    order = inOrder(await target.allocations('web'));

    // Act
    dry = await runCli(['-yes', '-dry-run', '-batch-size', '2', ...gate(), 'web'], target.env);
    result = await runCli(['-yes', ...gate(), 'web'], target.env);
    after = await target.allocations('web');
  });
  afterAll(() => target?.close());

  it('says it waits for each batch and that each allocation is healthy again', () => {
    // Arrange
    const [a, b] = order.map((x) => short(x.ID));

    // Assert
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toEqual(healthGatedRestartLines([a, b]));
  });

  it("restarts the 2nd batch only after the 1st one's check passed again, then -min-healthy-time", () => {
    // Arrange
    const [first, second] = order.map((x) => after.find((y) => y.ID === x.ID));
    const restartedAt = lastEvent(first, 'Started');
    const secondSignal = lastEvent(second, 'Restart Signaled');

    // Assert
    expect(after.filter(wasRestarted)).toHaveLength(2);
    expect(secondSignal).toBeGreaterThanOrEqual(restartedAt + targetNs(T.minMs));
    const sim = target.sim;
    if (sim === undefined) return;
    // On the simulator its request log and check runs say when: the 1st check that passed after
    // the restart, then -min-healthy-time, then the 2nd batch's restart request.
    const passed = firstPassAfter(sim.control, first?.ID ?? '', restartedAt / 1e6);
    const restarts = sim.control
      .requestLog()
      .filter((r) => r.method === 'PUT' && r.path.endsWith('/restart'));
    expect(passed).toBeDefined();
    expect(restarts.map((r) => r.path)).toEqual(order.map((x) => `/v1/client/allocation/${x.ID}/restart`));
    expect(restarts[1]?.time).toBeGreaterThanOrEqual((passed ?? Infinity) + targetNs(T.minMs) / 1e6);
  });

  it('reads checks in the shape the simulator serves (the traced one)', async () => {
    // Act
    const answer = await get<Record<string, Record<string, unknown>>>(
      target.address,
      `/v1/client/allocation/${order[0]?.ID}/checks?namespace=${target.namespace('default')}`,
    );

    // Assert
    const [id, result] = onlyTracedCheck(answer);
    expect(Object.keys(result ?? {}).sort()).toEqual([
      'Check',
      'Group',
      'ID',
      'Mode',
      'Output',
      'Service',
      'Status',
      'StatusCode',
      'Timestamp',
    ]);
    expect(result).toMatchObject({
      ID: id,
      Check: 'http',
      Group: order[0]?.Name,
      Mode: 'healthiness',
      Output: 'nomad: http ok',
      Service: 'web-web',
      Status: 'success',
      StatusCode: 200,
    });
    // Unix seconds, after the restarted task started.
    expect(result?.['Timestamp']).toBeGreaterThan(
      Math.floor(
        lastEvent(
          after.find((a) => a.ID === order[0]?.ID),
          'Started',
        ) / SECOND,
      ),
    );
    expect(result?.['Timestamp']).toBeLessThan(1e11);
  });

  it('shows the gate, its timings and its reads in the -dry-run plan', () => {
    // Assert
    expect(dry.code).toBe(0);
    expect(lines(dry.stdout).filter((l) => l.startsWith('==> '))).toEqual([
      '==> <ts>: Dry run: would restart 2 allocations of job "web" in 1 batch of up to 2; nothing was changed',
      `==> <ts>: Each batch then waits until its allocations are healthy: -min-healthy-time ${E2E_ADDR ? '2s' : '300ms'}, -healthy-deadline ${E2E_ADDR ? '1m0s' : '20s'}`,
      '==> <ts>: 1st batch of 2 allocations',
      '==> <ts>: Waiting for 2 allocations to become healthy',
    ]);
    expect(dry.stdout).toContain('GET /v1/job/web/allocations?index=<n> (blocking: task states)');
    for (const alloc of order)
      expect(dry.stdout).toMatch(
        new RegExp(`GET /v1/client/allocation/${alloc.ID}/checks \\(at most every [0-9.]+m?s\\)`),
      );
  });
});

describeHealth('-wait-healthy with a crash on start, -yes -max-errors 0', () => {
  let target: E2eTarget;
  let order: AllocListStub[];
  let result: CliResult;
  let after: AllocListStub[];
  beforeAll(async () => {
    // Arrange: every start after the restart exits 3; the policy keeps restarting it.
    const policy = { Attempts: 1000, Delay: SECOND, Interval: 1800 * SECOND, Mode: 'delay' };
    target = await openE2e({ jobs: [serverJob('crashing', 2, CRASH, policy)] });
    order = inOrder(await target.allocations('crashing'));
    target.sim?.control.crashOnStart({ jobId: 'crashing' }, { task: 'server', exitCode: 3 });

    // Act
    result = await runCli(
      ['-yes', '-max-errors', '0', ...gate(T.min, T.crashDeadline), 'crashing'],
      target.env,
    );
    after = await target.allocations('crashing');
  });
  afterAll(() => target?.close());

  it('stops before batch 2 with the deadline error, naming the task or check', () => {
    // Arrange
    const a = short(order[0]?.ID ?? '');
    const deadline = E2E_ADDR ? '12s' : '1.5s';

    // Assert
    expect(result.code).toBe(1);
    expect(lines(result.stdout)).toEqual(healthGateStoppedLines(2, a));
    expect(lines(result.stderr).slice(0, 2)).toEqual(['', '1 error occurred while restarting job:']);
    expect(lines(result.stderr)[2]).toMatch(
      new RegExp(
        `^\\* Error restarting allocation "${a}": Allocation "${a}" did not become healthy within ${deadline.replace('.', '\\.')}: (task "server" (is "pending" \\(Restarting: .*Task restarting in .+\\)|has not started again since the restart)|check "http" (is "failure": nomad: Get "http://127\\.0\\.0\\.1:\\d+/": dial tcp 127\\.0\\.0\\.1:\\d+: connect: connection refused|has not run since the task started))$`,
      ),
    );
  });

  it('never touches the 2nd allocation', () => {
    // Arrange: the 1st one's crash loop has pushed its `Restart Signaled` out of the last 10 events.
    const restarts = (a: AllocListStub | undefined) => a?.TaskStates?.['server']?.Restarts ?? 0;
    const [first, second] = order.map((x) => after.find((y) => y.ID === x.ID));

    // Assert
    expect(restarts(first)).toBeGreaterThan(1);
    expect(second === undefined ? true : wasRestarted(second)).toBe(false);
    expect(restarts(second)).toBe(0);
  });
});

describeHealth('-wait-healthy with a restart policy that gives up', () => {
  let target: E2eTarget;
  let result: CliResult;
  let alloc: AllocListStub | undefined;
  let startedAt: number;
  beforeAll(async () => {
    // Arrange: one attempt 1 s later, then "Not Restarting" (mode fail).
    const policy = { Attempts: 1, Delay: SECOND, Interval: 1800 * SECOND, Mode: 'fail' };
    target = await openE2e({ jobs: [serverJob('failing', 1, CRASH, policy)] });
    [alloc] = await target.allocations('failing');
    target.sim?.control.crashOnStart({ jobId: 'failing' }, { task: 'server', exitCode: 3 });

    // Act
    startedAt = Date.now();
    result = await runCli(['-yes', ...gate(T.min, '5m'), 'failing'], target.env);
  });
  afterAll(() => target?.close());

  it('reports the allocation failed at once, not after the 5m deadline, and its checks then answer null', async () => {
    // Arrange
    const a = short(alloc?.ID ?? '');

    // Act
    const checks = await get(
      target.address,
      `/v1/client/allocation/${alloc?.ID}/checks?namespace=${target.namespace('default')}`,
    );

    // Assert
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([
      '',
      '1 error occurred while restarting job:',
      `* Error restarting allocation "${a}": Allocation "${a}" failed before it became healthy: task "server" failed (Not Restarting: Exceeded allowed attempts 1 in interval 30m0s and mode is "fail")`,
      '',
    ]);
    expect(Date.now() - startedAt).toBeLessThan(120_000);
    expect(checks.status).toBe(200);
    expect(checks.text.trim()).toBe('null');
  });
});

describeHealth('-wait-healthy with a flapping check', () => {
  let target: E2eTarget;
  let result: CliResult;
  beforeAll(async () => {
    // Arrange: the simulator's check runs every 60 simulated s (600 ms) so polls see each run.
    const job = serverJob('flapping', 1, FLAPPING);
    if (!E2E_ADDR) {
      const check = job.TaskGroups?.[0]?.Services?.[0]?.Checks?.[0];
      if (check) check.Interval = 60 * SECOND;
    }
    target = await openE2e({ jobs: [job] });
    target.sim?.control.setCheckBehaviour({ jobId: 'flapping' }, 'http', { behaviour: 'flapping' });

    // Act
    result = await runCli(
      ['-yes', '-verbose', '-output', 'json', ...gate(T.flapMin), 'flapping'],
      target.env,
    );
  });
  afterAll(() => target?.close());

  it('starts the -min-healthy-time count over after the failure, as its JSON events show', () => {
    // Arrange
    const all = events(result);
    const reset = all.find((e) => e.type === 'health-reset');
    const healthy = all.find((e) => e.type === 'allocation-healthy');

    // Assert
    expect(result.code).toBe(0);
    expect(all.find((e) => e.type === 'health-waiting')).toMatchObject({
      count: 1,
      minHealthyTimeNs: T.flapMinMs * 1e6,
      healthyDeadlineNs: (E2E_ADDR ? 60 : 20) * SECOND,
    });
    expect(reset).toMatchObject({ reason: expect.stringMatching(/^check "http" is "failure": /) });
    expect(healthy).toMatchObject({ checks: 1 });
    expect((healthy?.time ?? 0) - (reset?.time ?? Infinity)).toBeGreaterThanOrEqual(T.flapMinMs);
  });
});

describeHealth('-reschedule -wait-healthy', () => {
  let target: E2eTarget;
  let original: AllocListStub | undefined;
  let result: CliResult;
  let endedAt: number;
  beforeAll(async () => {
    // Arrange
    target = await openE2e({ jobs: [serverJob('replaced', 1, SERVE)] });
    [original] = await target.allocations('replaced');

    // Act
    result = await runCli(['-yes', '-reschedule', ...gate(), 'replaced'], target.env);
    endedAt = Date.now();
  });
  afterAll(() => target?.close());

  it("waits for the replacement's check to pass, then -min-healthy-time", async () => {
    // Arrange
    const all = await target.allocations('replaced');
    const replacement = all.find((a) => a.ID === all.find((x) => x.ID === original?.ID)?.NextAllocation);
    const [o, r] = [short(original?.ID ?? ''), short(replacement?.ID ?? '')];

    // Assert
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toEqual([
      '==> <ts>: Restarting 1 allocation',
      `    <ts>: Rescheduling allocation "${o}" for group "web"`,
      `    <ts>: Allocation "${o}" replaced by "${r}", waiting for "${r}" to start running`,
      `    <ts>: Allocation "${r}" is "running"`,
      '==> <ts>: Waiting for 1 allocation to become healthy',
      `    <ts>: Allocation "${r}" is healthy`,
      '==> <ts>: Job restart finished',
      '',
      'Job restarted successfully!',
      '',
    ]);
    const started = lastEvent(replacement, 'Started');
    const sim = target.sim;
    if (sim === undefined) {
      expect(endedAt * 1e6).toBeGreaterThanOrEqual(started + targetNs(T.minMs));
      return;
    }
    const passed = firstPassAfter(sim.control, replacement?.ID ?? '', started / 1e6);
    const reads = sim.control
      .requestLog()
      .filter((x) => x.path === `/v1/client/allocation/${replacement?.ID}/checks`);
    expect(passed).toBeDefined();
    expect(reads.at(-1)?.time).toBeGreaterThanOrEqual((passed ?? Infinity) + targetNs(T.minMs) / 1e6);
  });
});
