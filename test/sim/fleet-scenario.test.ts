// Scenario: the fleet scenarios the fleet tests and the scale benchmark start from. The bundled
// one has every kind of job a fleet must tell apart, placed on the nodes of their pool and
// datacenters, and a token with exactly the fleet's policy; the generator builds the benchmark's
// 5,000-job shape at any size, the same on every call.
import type { JobListStub } from '../../lib/nomad/types';
import { FLEET_TOKENS, fleetScenario, type RequestRates, startSimulator } from '../../sim/index';
import { call, get } from './helpers/http';
import { TEST_TIME_SCALE } from './helpers/target';

describe('simulator: fleet scenarios', () => {
  it('serves the bundled fleet: every job kind, in three namespaces, to the fleet token', async () => {
    // Arrange
    const sim = await startSimulator({ scenario: 'fleet', timeScale: TEST_TIME_SCALE });
    try {
      // Act
      const jobs = await get<JobListStub[]>(sim.address, '/v1/jobs?namespace=*', FLEET_TOKENS.fleet);
      const state = sim.control.state();
      const rates = await get<RequestRates>(sim.address, '/_sim/rates');

      // Assert
      const byId = new Map(jobs.json.map((j) => [`${j.Namespace}/${j.ID}`, j]));
      expect(new Set(jobs.json.map((j) => j.Namespace))).toEqual(new Set(['default', 'payments', 'search']));
      expect(jobs.json).toHaveLength(20);
      expect(rates.json.byFamily).toEqual({ jobs: 1 });
      expect(rates.json.peakPerSecond).toBe(1);
      expect(byId.get('default/log-shipper')?.Type).toBe('sysbatch');
      expect(byId.get('default/old-web')).toMatchObject({ Stop: true, Status: 'dead' });
      expect(byId.get('payments/reports')).toMatchObject({ Periodic: true, Status: 'running' });
      expect(byId.get('payments/reports')?.JobSummary).toMatchObject({
        Children: { Pending: 0, Running: 1, Dead: 0 },
      });
      expect(byId.get('payments/reports/periodic-1764990000')?.ParentID).toBe('reports');
      expect(byId.get('search/reindex')?.ParameterizedJob).toBe(true);
      expect(byId.get('search/reindex/dispatch-1764990000-3f2a1b9c')?.ParentID).toBe('reindex');
      expect(state.allocations({ jobId: 'reports', namespace: 'payments' })).toEqual([]);
      const gpuNodes = new Set(
        state
          .nodes()
          .filter((n) => n.NodePool === 'gpu')
          .map((n) => n.ID),
      );
      for (const [id, ns] of [
        ['fraud-model', 'payments'],
        ['embeddings', 'search'],
      ] as const) {
        const allocs = state.allocations({ jobId: id, namespace: ns });
        expect(allocs.length).toBeGreaterThan(0);
        expect(allocs.every((a) => gpuNodes.has(a.NodeID ?? '') && a.ClientStatus === 'running')).toBe(true);
      }
      const crawler = state.allocations({ jobId: 'crawler', namespace: 'search' });
      const dc2 = new Set(
        state
          .nodes()
          .filter((n) => n.Datacenter === 'dc2')
          .map((n) => n.ID),
      );
      expect(crawler.every((a) => dc2.has(a.NodeID ?? ''))).toBe(true);
    } finally {
      await sim.close();
    }
  });

  it('answers the fleet’s selections to the fleet token: meta, kinds, nodes and pools', async () => {
    // Arrange
    const sim = await startSimulator({ scenario: 'fleet', timeScale: TEST_TIME_SCALE });
    const select = async (expression: string) =>
      (
        await get<JobListStub[]>(
          sim.address,
          `/v1/jobs?namespace=*&meta=true&filter=${encodeURIComponent(expression)}`,
          FLEET_TOKENS.fleet,
        )
      ).json.map((j) => `${j.Namespace}/${j.ID}`);
    try {
      // Act
      const payments = await select('Meta.team == "payments" and Type == "service"');
      const parents = await select('Periodic is not nil or ParameterizedJob is not nil');
      const children = await select('ParentID != ""');
      const gpu = await select('NodePool == gpu');
      const nodes = await get<Array<{ Name: string }>>(
        sim.address,
        `/v1/nodes?prefix=5a1c&filter=${encodeURIComponent('Datacenter == dc1')}`,
        FLEET_TOKENS.fleet,
      );
      const pools = await get<Array<{ Name: string }>>(sim.address, '/v1/node/pools', FLEET_TOKENS.fleet);

      // Assert
      expect(payments).toEqual([
        'payments/checkout',
        'payments/fraud-model',
        'payments/ledger',
        'payments/refunds-worker',
      ]);
      expect(parents).toEqual(['payments/reports', 'search/reindex']);
      expect(children).toEqual([
        'payments/reports/periodic-1764990000',
        'search/reindex/dispatch-1764990000-3f2a1b9c',
      ]);
      expect(gpu).toEqual(['payments/fraud-model', 'search/embeddings']);
      expect(nodes.json.map((n) => n.Name)).toEqual(['client-1', 'client-2']);
      expect(pools.json.map((p) => p.Name)).toEqual(['all', 'default', 'gpu']);
    } finally {
      await sim.close();
    }
  });

  it('names in the request log the job each request is about, allocation requests included', async () => {
    // Arrange
    const sim = await startSimulator({ scenario: 'fleet', timeScale: TEST_TIME_SCALE });
    const [alloc] = sim.control.state().allocations({ jobId: 'checkout', namespace: 'payments' });
    const token = FLEET_TOKENS.management;
    try {
      // Act
      await get(sim.address, '/v1/job/ledger?namespace=payments', token);
      await call(sim.address, `/v1/client/allocation/${alloc?.ID}/restart`, { method: 'PUT', token });
      await get(
        sim.address,
        `/v1/allocations?namespace=search&filter=${encodeURIComponent('JobID == "query"')}`,
        token,
      );
      await get(sim.address, '/v1/jobs?namespace=*', token);

      // Assert
      expect(sim.control.requestLog().map((e) => [e.path, e.namespace, e.job])).toEqual([
        ['/v1/job/ledger', 'payments', 'ledger'],
        [`/v1/client/allocation/${alloc?.ID}/restart`, 'payments', 'checkout'],
        ['/v1/allocations', 'search', 'query'],
        ['/v1/jobs', undefined, undefined],
      ]);
    } finally {
      await sim.close();
    }
  });

  it('generates the benchmark’s fleet at any size, deterministically', () => {
    // Act
    const scenario = fleetScenario({
      jobs: 50,
      allocationsPerJob: 4,
      namespaces: 3,
      nodes: 20,
      otherKinds: 1,
    });
    const again = fleetScenario({ jobs: 50, allocationsPerJob: 4, namespaces: 3, nodes: 20, otherKinds: 1 });

    // Assert
    expect(again).toEqual(scenario);
    expect(scenario.namespaces).toEqual(['ns-1', 'ns-2']);
    expect(scenario.nodes).toHaveLength(20);
    expect(new Set(scenario.nodes.map((n) => n.id?.slice(0, 8))).size).toBe(20);
    expect(scenario.nodes.filter((n) => n.pool === 'gpu')).toHaveLength(2);
    expect(scenario.jobs).toHaveLength(56);
  });

  it('loads a generated fleet with every allocation running', async () => {
    // Arrange
    const scenario = fleetScenario({ jobs: 60, allocationsPerJob: 5, namespaces: 3, nodes: 12 });

    // Act
    const sim = await startSimulator({ scenario, timeScale: TEST_TIME_SCALE });
    try {
      const allocs = sim.control.state().allocations();

      // Assert
      expect(allocs).toHaveLength(300);
      expect(allocs.every((a) => a.ClientStatus === 'running')).toBe(true);
      const perNode = new Map<string, number>();
      for (const a of allocs) perNode.set(a.NodeID ?? '', (perNode.get(a.NodeID ?? '') ?? 0) + 1);
      // Spread as Nomad's scheduler spreads: no node holds twice its share.
      expect(Math.max(...perNode.values())).toBeLessThanOrEqual(2 * (300 / 12));
    } finally {
      await sim.close();
    }
  });
});
