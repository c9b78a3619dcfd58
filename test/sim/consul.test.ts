// Scenario: the simulator's Consul, fed by the simulated clients as Nomad's register services
// (`client/serviceregistration` IDs, `initial_status` else `critical`): a seeded allocation's group
// and task services are registered and passing; a one-task restart registers the task's service
// afresh (critical until its check runs) and leaves the group's as it was (the stale passing);
// scripted statuses follow at the check interval; a stopped allocation's services are gone; the
// node check shows in /v1/health/service only.
import { ConsulClient } from '../../lib/consul';
import type { ConsulHealthCheck } from '../../lib/consul/types';
import type { Allocation } from '../../lib/nomad/types';
import { type RunningSimulator, startSimulator } from '../../sim/index';
import { consulJob } from './helpers/consul-job';
import { nodes, seededRandom } from './helpers/fixtures';
import { call, put } from './helpers/http';
import { manualClock } from './helpers/manual-clock';

describe('simulator Consul', () => {
  let sim: RunningSimulator;
  let consul: ConsulClient;
  // Time moves only when a test advances it: what Consul shows between two check runs is then certain.
  const clock = manualClock();

  beforeAll(async () => {
    sim = await startSimulator({ clock, random: seededRandom(5) });
    consul = ConsulClient.create({ address: sim.consul.address });
  });
  afterAll(async () => {
    await consul.close();
    await sim.close();
  });
  beforeEach(() => sim.control.reset());

  const seed = (): Allocation => {
    sim.control.seed({ nodes: nodes(1), jobs: [consulJob()] });
    const [alloc] = sim.control.state().allocations({ jobId: 'shop' });
    if (alloc === undefined) throw new Error('no allocation');
    return alloc;
  };
  const check = async (service: string, name: string): Promise<ConsulHealthCheck | undefined> =>
    (await consul.serviceChecks(service)).checks.find((c) => c.Name === name);
  /** Every check runs within one interval (2 s) of the last. */
  const nextRuns = () => clock.advance(2_000);

  it("registers a seeded allocation's group and task services under Nomad's IDs, passing", async () => {
    // Arrange
    const alloc = seed();

    // Act
    const web = await consul.serviceChecks('web');
    const api = await consul.serviceChecks('api');

    // Assert
    expect(web.checks).toEqual([
      expect.objectContaining({
        Node: 'node-1',
        Name: 'alive',
        Status: 'passing',
        ServiceID: `_nomad-task-${alloc.ID}-group-web-web-http`,
        ServiceName: 'web',
        Type: 'http',
        CheckID: expect.stringMatching(/^_nomad-check-[0-9a-f]{64}$/),
      }),
    ]);
    expect(api.checks).toEqual([
      expect.objectContaining({
        Name: 'ready',
        Status: 'passing',
        ServiceID: `_nomad-task-${alloc.ID}-server-api-rpc`,
      }),
    ]);
    expect(Number(web.index)).toBeGreaterThan(0);
  });

  it('counts Consul requests per family and per second, over HTTP too', async () => {
    // Arrange
    seed();
    sim.consul.control.resetCounters();

    // Act
    await consul.serviceChecks('web');
    await consul.serviceChecks('api');
    const rates = await call<{ byFamily: Record<string, number>; peakPerSecond: number }>(
      sim.consul.address,
      '/_sim/rates',
    );

    // Assert
    expect(sim.consul.control.requestRates().byFamily).toEqual({ health: 2 });
    expect(rates.json.byFamily).toEqual({ health: 2 });
    expect(rates.json.peakPerSecond).toBeGreaterThanOrEqual(1);
  });

  it("registers a restarted task's service afresh and leaves the group's stale passing", async () => {
    // Arrange
    const alloc = seed();
    const webBefore = await check('web', 'alive');
    const apiBefore = await check('api', 'ready');

    // Act
    const restarting = put(sim.address, `/v1/client/allocation/${alloc.ID}/restart`, { TaskName: 'server' });
    await sim.control.waitFor((s) =>
      (s.allocation(alloc.ID)?.TaskStates?.['server']?.Events ?? []).some(
        (e) => e.Type === 'Restart Signaled',
      ),
    );
    clock.advance(100); // the kill
    const restarted = await restarting;
    const apiAfter = await check('api', 'ready');
    const webAfter = await check('web', 'alive');
    nextRuns();
    const apiRun = await check('api', 'ready');

    // Assert
    expect(restarted.status).toBe(200);
    expect(apiAfter?.Status).toBe('critical');
    expect(apiAfter?.Output).toBe('');
    expect(apiAfter?.CreateIndex).toBe(apiBefore?.CreateIndex);
    expect(apiAfter?.ModifyIndex).toBeGreaterThan(apiBefore?.ModifyIndex ?? Number.POSITIVE_INFINITY);
    expect(webAfter).toEqual(webBefore);
    expect(apiRun?.Status).toBe('passing');
    expect(apiRun?.Output).toMatch(/^TCP connect 127\.0\.0\.1:\d+: Success$/);
  });

  it("registers the group's services again, critical, when all the tasks restart", async () => {
    // Arrange
    const alloc = seed();
    const webBefore = await check('web', 'alive');

    // Act
    const restarting = put(sim.address, `/v1/client/allocation/${alloc.ID}/restart`, {});
    await sim.control.waitFor((s) =>
      (s.allocation(alloc.ID)?.TaskStates?.['logger']?.Events ?? []).some(
        (e) => e.Type === 'Restart Signaled',
      ),
    );
    const webAtSignal = await check('web', 'alive');
    clock.advance(100);
    await restarting;

    // Assert
    expect(webBefore?.Status).toBe('passing');
    expect(webAtSignal).toEqual(
      expect.objectContaining({ Status: 'critical', Output: '', CreateIndex: webBefore?.CreateIndex }),
    );
  });

  it('reports a scripted status with its output from the next run, and flapping as scripted', async () => {
    // Arrange
    const alloc = seed();

    const statuses: string[] = [];

    // Act
    sim.consul.control.setCheck({ allocationId: alloc.ID }, 'alive', {
      status: 'critical',
      output: 'HTTP 503: db down',
    });
    sim.consul.control.setCheck({ jobId: 'shop' }, 'ready', { status: 'flapping', flaps: 2 });
    nextRuns();
    const critical = await check('web', 'alive');
    for (let run = 0; run < 5; run++) {
      statuses.push((await check('api', 'ready'))?.Status ?? 'missing');
      nextRuns();
    }

    // Assert
    expect(critical).toEqual(expect.objectContaining({ Status: 'critical', Output: 'HTTP 503: db down' }));
    expect(statuses).toEqual(['passing', 'critical', 'passing', 'critical', 'passing']);
  });

  it('deregisters every service of a stopped allocation', async () => {
    // Arrange
    seed();

    // Act
    const stopped = await call(sim.address, '/v1/job/shop', { method: 'DELETE' });
    clock.advance(100); // the scheduler's evaluation
    const api = await consul.serviceChecks('api');
    const web = await consul.serviceChecks('web');

    // Assert
    expect(stopped.status).toBe(200);
    expect(api.checks).toEqual([]);
    expect(web.checks).toEqual([]);
  });

  it('lists the node check beside the service checks in /v1/health/service only', async () => {
    // Arrange
    const alloc = seed();

    // Act
    const entries = await call<Array<{ Service: { ID: string }; Checks: ConsulHealthCheck[] }>>(
      sim.consul.address,
      '/v1/health/service/web',
    );

    // Assert
    expect(entries.status).toBe(200);
    expect(entries.headers.get('X-Consul-Index')).toMatch(/^\d+$/);
    expect(entries.json.map((e) => e.Service.ID)).toEqual([`_nomad-task-${alloc.ID}-group-web-web-http`]);
    expect(entries.json[0]?.Checks.map((c) => c.CheckID)).toEqual([
      'serfHealth',
      expect.stringMatching(/^_nomad-check-/),
    ]);
    expect((await consul.serviceChecks('web')).checks.map((c) => c.CheckID)).not.toContain('serfHealth');
  });
});
