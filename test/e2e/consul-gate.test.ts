// Scenario: -wait-healthy waits for the allocations' Consul checks, through the real command
// (a subprocess), on a real Consul agent (ACLs on, default deny) and the Nomad agent registering
// its services in it (NOMAD_E2E_CONSUL_ADDR, NOMAD_E2E_CONSUL_TOKEN, NOMAD_E2E_ADDR; see
// consul-pair.ts, fixtures in consul-fixtures.ts). The command holds only the README's least-privilege Consul policy. The
// fixtures are raw_exec python servers behind a group service with Consul `http` checks every
// second; a watch of blocking queries says independently when Consul showed them passing.
// - healthy: the server listens only 4 s after each start, and a task service's script check
//   passes only once it does: the 2nd batch's restart comes -min-healthy-time after the 1st
//   allocation's checks passed again in Consul, not after a `passing` left from before the restart;
//   -dry-run lists the Consul reads and restarts nothing;
// - failing: once restarted the server answers 500: the task runs (Nomad would call it healthy),
//   the Consul check is critical, and -max-errors 0 stops at the deadline naming the check, its
//   status and the output Consul shows for it, the 2nd allocation untouched;
// - -task: a one-task restart leaves the group service registered with its `passing` from before
//   the restart; the gate does not count it (the server answers 500 once restarted);
// - flapping: once restarted the server answers its 3rd request with a 500: the count of
//   -min-healthy-time starts over, in the JSON events and in Consul's own record;
// - Consul's errors stop the run before any restart: an unknown token, a token that may not read
//   the service, an address nothing listens on.

import type { AllocListStub } from '../../lib/nomad/types';
import type { ProgressEvent } from '../../lib/restart/events';
import {
  closedAddress,
  closeFixture,
  FAILING,
  type Fixture,
  FLAPPING,
  groupServiceId,
  lastEventMs,
  openFixture,
  SLOW,
  server,
  taskServiceId,
  UNKNOWN_TOKEN,
  UP_CHECK,
} from './helpers/consul-fixtures';
import { type CheckReading, describeConsul, passingSince, statusesSeen } from './helpers/consul-pair';
import { wasRestarted } from './helpers/e2e-target';
import { type CliResult, healthGatedRestartLines, healthGateStoppedLines, runCli } from './helpers/run-cli';

const MIN_MS = 3_000;
const gate = (deadline = '60s', minHealthy = '3s') => [
  '-wait-healthy',
  '-min-healthy-time',
  minHealthy,
  '-healthy-deadline',
  deadline,
];
/** The fixture's Nomad settings, with Consul's address and the fixture's token in CONSUL_* variables. */
const consulEnv = (f: Fixture) => ({
  ...f.target.env,
  CONSUL_HTTP_ADDR: f.consul.address,
  CONSUL_HTTP_TOKEN: f.token,
});
/** How far a watch's reading may lag the gate's own (two blocking queries woken by one index). */
const LAG_MS = 500;

const short = (id: string) => id.slice(0, 8);
const lines = (text: string) => text.split('\n');
const events = (result: CliResult) =>
  lines(result.stdout)
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as ProgressEvent);
describeConsul('-wait-healthy on Consul checks: healthy, one allocation per batch', () => {
  let f: Fixture;
  let dry: CliResult;
  let afterDry: AllocListStub[];
  let result: CliResult;
  let readings: readonly CheckReading[];
  let after: AllocListStub[];
  beforeAll(async () => {
    // Arrange
    f = await openFixture('consul-healthy', { script: SLOW, taskCheck: UP_CHECK });
    const consul = ['-consul-address', f.consul.address, '-consul-token', f.token];
    const watch = f.consul.watch(f.service, `${f.service}-task`);

    // Act: address and token by flag.
    dry = await runCli(['-yes', '-dry-run', ...consul, ...gate(), 'consul-healthy'], f.target.env);
    afterDry = await f.target.allocations('consul-healthy');
    result = await runCli(['-yes', ...consul, ...gate(), 'consul-healthy'], f.target.env);
    after = await f.target.allocations('consul-healthy');
    readings = await watch.stop();
  });
  afterAll(() => closeFixture(f));

  it('restarts both allocations, one batch at a time, and says each is healthy', () => {
    // Arrange
    const [a, b] = f.order.map((x) => short(x.ID));

    // Assert
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toEqual(healthGatedRestartLines([a, b]));
    expect(after.filter(wasRestarted)).toHaveLength(2);
  });

  it('lists the Consul reads in the -dry-run plan, restarting nothing', () => {
    // Assert
    expect(dry.code).toBe(0);
    for (const service of [f.service, `${f.service}-task`]) {
      expect(dry.stdout).toContain(`GET /v1/health/checks/${service} `);
      expect(dry.stdout).toContain(`GET /v1/health/checks/${service}?index=<n>`);
    }
    expect(afterDry.filter(wasRestarted)).toEqual([]);
  });

  it("restarts the 2nd allocation -min-healthy-time after Consul showed the 1st one's checks passing again", () => {
    // Arrange
    const [first, second] = f.order.map((x) => after.find((y) => y.ID === x.ID));
    const ids = [groupServiceId(first?.ID ?? '', f.service), taskServiceId(first?.ID ?? '', f.service)];
    const restarted = lastEventMs(first, 'Restart Signaled');
    const secondRestart = lastEventMs(second, 'Restart Signaled');
    const passing = passingSince(readings, ids, restarted, secondRestart);

    // Assert: Consul showed the checks failing after the restart (the server was not up for 4 s),
    // so a `passing` from before it could not have let the 2nd batch go.
    expect(statusesSeen(readings, ids, restarted, secondRestart)).toContain('critical');
    expect(passing).toBeGreaterThanOrEqual(lastEventMs(first, 'Started') + 4_000);
    expect(secondRestart).toBeGreaterThanOrEqual((passing ?? Infinity) + MIN_MS - LAG_MS);
  });
});

describeConsul('-wait-healthy on Consul checks: a check critical at the deadline, -max-errors 0', () => {
  let f: Fixture;
  let result: CliResult;
  let after: AllocListStub[];
  beforeAll(async () => {
    // Arrange
    f = await openFixture('consul-failing', { script: FAILING });

    // Act: address and token from Consul's own variables.
    result = await runCli(['-yes', '-max-errors', '0', ...gate('15s'), 'consul-failing'], consulEnv(f));
    after = await f.target.allocations('consul-failing');
  });
  afterAll(() => closeFixture(f));

  it('stops before batch 2 with the deadline error naming the check, its status and the output Consul shows', async () => {
    // Arrange
    const a = short(f.order[0]?.ID ?? '');
    const [check] = (await f.consul.checks(f.service)).filter(
      (c) => c.ServiceID === groupServiceId(f.order[0]?.ID ?? '', f.service),
    );

    // Assert: Consul's catalog shows the check critical. Its Output may still be the empty one of
    // the registration: a run that keeps the status does not sync its output for minutes
    // (Consul's check_update_interval), so the error can only quote what Consul shows.
    expect(check).toMatchObject({ Name: 'http', Status: 'critical' });
    expect(result.code).toBe(1);
    expect(lines(result.stdout)).toEqual(healthGateStoppedLines(2, a));
    const error = lines(result.stderr)[2] ?? '';
    expect(error).toContain(
      `* Error restarting allocation "${a}": Allocation "${a}" did not become healthy within 15s`,
    );
    expect(error).toContain('"http"');
    expect(error).toContain('critical');
    expect(error).toContain(check?.Output.trim() ?? '<no check>');
  });

  it('never touches the 2nd allocation, whose task kept running', () => {
    // Arrange
    const [first, second] = f.order.map((x) => after.find((y) => y.ID === x.ID));

    // Assert
    expect(first === undefined ? false : wasRestarted(first)).toBe(true);
    expect(first?.TaskStates?.['server']?.State).toBe('running');
    expect(second === undefined ? true : wasRestarted(second)).toBe(false);
  });
});

describeConsul('-wait-healthy on Consul checks: -task leaves the group check passing from before', () => {
  let f: Fixture;
  let result: CliResult;
  let readings: readonly CheckReading[];
  let after: AllocListStub[];
  beforeAll(async () => {
    // Arrange: the group check runs every 5 s; once restarted the server answers 500. A restart of
    // one task does not register the group service again, so Consul keeps its `passing` until
    // the check's next run.
    f = await openFixture('consul-stale', { script: FAILING, checkEvery: 5 });
    const watch = f.consul.watch(f.service);

    // Act
    result = await runCli(
      ['-yes', '-max-errors', '0', '-task', 'server', ...gate('15s', '1s'), 'consul-stale'],
      consulEnv(f),
    );
    after = await f.target.allocations('consul-stale');
    readings = await watch.stop();
  });
  afterAll(() => closeFixture(f));

  it('does not count that passing: the check fails when it runs again, and batch 2 never starts', () => {
    // Arrange
    const [first, second] = f.order.map((x) => after.find((y) => y.ID === x.ID));
    const a = short(first?.ID ?? '');
    const ids = [groupServiceId(first?.ID ?? '', f.service)];
    const firstCritical = readings
      .flatMap((r) => r.checks)
      .find((c) => ids.includes(c.ServiceID) && c.Status === 'critical');

    // Assert: Consul went from `passing` to `critical` only when the check ran again (a run has an
    // Output; a registration anew would show Consul's initial `critical` with none): its `passing`
    // had outlived the restart.
    expect(statusesSeen(readings, ids, 0, Date.now())).toEqual(['passing', 'critical']);
    expect(firstCritical?.Output).toMatch(/^HTTP GET \S+: (500 Internal Server Error|.*connection refused)/);
    expect(result.code).toBe(1);
    expect(lines(result.stderr)[2]).toMatch(
      new RegExp(
        `^\\* Error restarting allocation "${a}": Allocation "${a}" did not become healthy within 15s: .*"http".*critical`,
      ),
    );
    expect(first === undefined ? false : wasRestarted(first)).toBe(true);
    expect(second === undefined ? true : wasRestarted(second)).toBe(false);
  });
});

describeConsul('-wait-healthy on Consul checks: a flapping check', () => {
  let f: Fixture;
  let result: CliResult;
  let readings: readonly CheckReading[];
  let after: AllocListStub[];
  beforeAll(async () => {
    // Arrange
    f = await openFixture('consul-flapping', { script: FLAPPING });
    const watch = f.consul.watch(f.service);

    // Act
    result = await runCli(
      ['-yes', '-verbose', '-output', 'json', ...gate(), 'consul-flapping'],
      consulEnv(f),
    );
    after = await f.target.allocations('consul-flapping');
    readings = await watch.stop();
  });
  afterAll(() => closeFixture(f));

  it('starts the -min-healthy-time count over after the failure, as its JSON events show', () => {
    // Arrange
    const first = f.order[0]?.ID ?? '';
    const mine = events(result).filter((e) => 'allocationId' in e && e.allocationId === first);
    const reset = mine.find((e) => e.type === 'health-reset');
    const healthy = mine.find((e) => e.type === 'allocation-healthy');

    // Assert
    expect(result.code).toBe(0);
    expect(reset).toMatchObject({ reason: expect.stringMatching(/"http".*critical/) });
    expect((healthy?.time ?? 0) - (reset?.time ?? Infinity)).toBeGreaterThanOrEqual(MIN_MS);
  });

  it("restarts the 2nd allocation -min-healthy-time after Consul showed the 1st one's check recovered", () => {
    // Arrange
    const [first, second] = f.order.map((x) => after.find((y) => y.ID === x.ID));
    const ids = [groupServiceId(first?.ID ?? '', f.service)];
    const restarted = lastEventMs(first, 'Restart Signaled');
    const secondRestart = lastEventMs(second, 'Restart Signaled');
    const recovered = passingSince(readings, ids, restarted, secondRestart);

    // Assert: Consul itself saw the flap: passing, critical, passing again.
    expect(statusesSeen(readings, ids, restarted, secondRestart).slice(-2)).toEqual(['critical', 'passing']);
    expect(secondRestart).toBeGreaterThanOrEqual((recovered ?? Infinity) + MIN_MS - LAG_MS);
  });
});

describeConsul("Consul's errors stop -wait-healthy before any restart", () => {
  const cases = [
    'an unknown token',
    'a token without service:read',
    'an address nothing listens on',
  ] as const;
  type Case = (typeof cases)[number];
  let f: Fixture;
  /** What each case's stderr must say (the address nothing listens on is known only once made). */
  const says = new Map<Case, RegExp>();
  const results = new Map<Case, CliResult>();
  beforeAll(async () => {
    // Arrange: a token that reads nodes but no service; an address nothing listens on.
    f = await openFixture('consul-refused', { script: server('200') });
    const blind = await f.consul.token('node_prefix "" { policy = "read" }');
    const closed = await closedAddress();
    const setups: Record<Case, { addr: string; token: string; says: RegExp }> = {
      'an unknown token': { addr: f.consul.address, token: UNKNOWN_TOKEN, says: /ACL not found/ },
      'a token without service:read': { addr: f.consul.address, token: blind, says: /service:read/ },
      'an address nothing listens on': {
        addr: closed,
        token: f.token,
        says: new RegExp(`${closed.replaceAll('.', '\\.')}.*(connection refused|ECONNREFUSED)`),
      },
    };

    // Act
    for (const name of cases) {
      const { addr, token } = setups[name];
      says.set(name, setups[name].says);
      results.set(
        name,
        await runCli(['-yes', ...gate(), 'consul-refused'], {
          ...f.target.env,
          CONSUL_HTTP_ADDR: addr,
          CONSUL_HTTP_TOKEN: token,
        }),
      );
    }
  });
  afterAll(() => closeFixture(f));

  it.each(cases)('%s: exits 1 naming the cause, and restarts nothing', async (name) => {
    // Arrange
    const result = results.get(name);
    const all = await f.target.allocations('consul-refused');

    // Assert
    expect(result?.code).toBe(1);
    expect(result?.stderr).toMatch(says.get(name) ?? /no expectation/);
    expect(result?.stdout).not.toContain('Restarting running tasks');
    expect(all.filter(wasRestarted)).toEqual([]);
  });
});

// Runs everywhere: the cases above judge the command by these readings of Consul's record.
describe('reading the watch of Consul checks', () => {
  const check = (ServiceID: string, Status: string) =>
    ({ ServiceID, Name: 'http', Status }) as CheckReading['checks'][number];
  const readings: CheckReading[] = [
    { time: 100, checks: [check('a', 'passing'), check('b', 'passing')] },
    { time: 200, checks: [check('a', 'critical'), check('b', 'passing')] },
    { time: 300, checks: [check('a', 'passing'), check('b', 'warning')] },
    { time: 400, checks: [check('a', 'passing'), check('b', 'passing')] },
    { time: 500, checks: [check('a', 'passing'), check('b', 'passing')] },
    { time: 600, checks: [check('b', 'passing')] },
  ];

  it.each([
    {
      name: 'the start of the last unbroken passing run',
      ids: ['a', 'b'],
      after: 0,
      before: 550,
      expected: 400,
    },
    {
      name: 'a run that began before `after` as its first reading after it',
      ids: ['a'],
      after: 350,
      before: 550,
      expected: 400,
    },
    {
      name: 'undefined when the last reading in the window is not passing',
      ids: ['a', 'b'],
      after: 0,
      before: 350,
      expected: undefined,
    },
    { name: 'undefined when a service is gone', ids: ['a', 'b'], after: 0, before: 600, expected: undefined },
  ])('passingSince gives $name', ({ ids, after, before, expected }) => {
    // Act
    const since = passingSince(readings, ids, after, before);

    // Assert
    expect(since).toBe(expected);
  });

  it('statusesSeen gives the statuses in order, repeats dropped, critical over warning, a service gone as missing', () => {
    // Act
    const seen = statusesSeen(readings, ['a', 'b'], 0, 600);
    const onlyB = statusesSeen(readings, ['b'], 0, 600);

    // Assert
    expect(seen).toEqual(['passing', 'critical', 'warning', 'passing', 'missing']);
    expect(onlyB).toEqual(['passing', 'warning', 'passing']);
  });
});
