// Scenario: the simulator's own surface: fault injection (T14's "2nd response to a path
// ending in /restart is a 502 with an empty body", resets, latency, leader loss), request
// counters keyed by route pattern, the request log with tokens redacted, the control API
// over HTTP under /_sim, the demo scenario and the `sim` command.
import type { AllocListStub, JobListStub } from '../../lib/nomad/types';
import { group, job, nodes } from './helpers/fixtures';
import { call, get, put } from './helpers/http';
import { itSim, openTarget, sharedTarget, simControl } from './helpers/target';

describe('simulator', () => {
  const target = sharedTarget();

  const seedBatch = async (): Promise<AllocListStub[]> => {
    simControl(target).seed({ nodes: nodes(1), jobs: [job('t14', 'batch', [group('group1', 3, {}, '1h')])] });
    return (await get<AllocListStub[]>(target.address, '/v1/job/t14/allocations')).json;
  };

  describe('injectFault', () => {
    itSim('answers the Nth request to a path suffix with the given status and empty body', async () => {
      // Arrange
      const control = simControl(target);
      const allocs = await seedBatch();
      control.injectFault({ pathSuffix: '/restart', nth: 2, status: 502, body: '' });

      // Act
      const statuses: number[] = [];
      const bodies: string[] = [];
      for (const alloc of allocs) {
        const response = await put(target.address, `/v1/client/allocation/${alloc.ID}/restart`, {});
        statuses.push(response.status);
        bodies.push(response.text);
      }

      // Assert
      expect(statuses).toEqual([200, 502, 200]);
      expect(bodies[1]).toBe('');
      expect(control.counters()['PUT /v1/client/allocation/:id/restart']).toBe(3);
      const restartedIds = control
        .state()
        .allocations({ jobId: 't14' })
        .filter((a) => a.TaskStates?.['main']?.Restarts === 1)
        .map((a) => a.ID);
      expect(restartedIds).toEqual([allocs[0]?.ID, allocs[2]?.ID]);
    });

    itSim('lets the request take effect before replacing the answer with afterHandling', async () => {
      // Arrange
      const control = simControl(target);
      const [alloc] = await seedBatch();
      control.injectFault({ pathSuffix: '/restart', status: 502, afterHandling: true });

      // Act
      const response = await put(target.address, `/v1/client/allocation/${alloc?.ID}/restart`, {});

      // Assert
      expect(response.status).toBe(502);
      expect(control.state().allocation(alloc?.ID ?? '')?.TaskStates?.['main']?.Restarts).toBe(1);
    });

    itSim('resets the connection', async () => {
      // Arrange
      simControl(target).injectFault({ kind: 'reset', pathSuffix: '/v1/jobs' });

      // Act
      const outcome = await get(target.address, '/v1/jobs').then(
        () => 'answered',
        // Errors from fetch come from another realm under jest, so no instanceof here.
        (error: { name?: string }) => error.name,
      );

      // Assert
      expect(outcome).toBe('TypeError');
    });

    itSim('answers 500 No cluster leader while the leader is lost, until faults are cleared', async () => {
      // Arrange
      const control = simControl(target);
      control.injectFault({ kind: 'no-leader' });

      // Act
      const lost = await get(target.address, '/v1/jobs');
      control.clearFaults();
      const back = await get(target.address, '/v1/jobs');

      // Assert
      expect([lost.status, lost.text, lost.headers.get('X-Nomad-KnownLeader')]).toEqual([
        500,
        'No cluster leader',
        'false',
      ]);
      expect(back.status).toBe(200);
    });

    itSim('adds latency to matching requests', async () => {
      // Arrange
      const control = simControl(target);
      control.injectFault({ latencyMs: 30, pathSuffix: '/v1/jobs' });

      // Act
      const started = performance.now();
      const response = await get(target.address, '/v1/jobs');
      const elapsed = performance.now() - started;

      // Assert
      expect(response.status).toBe(200);
      expect(elapsed).toBeGreaterThanOrEqual(25);
    });
  });

  describe('counters and requestLog', () => {
    itSim('counts by route pattern and logs requests with the token redacted', async () => {
      // Arrange
      const control = simControl(target);
      await seedBatch();
      control.resetCounters();

      // Act
      await get(target.address, '/v1/job/t14/allocations?index=1');
      await get(target.address, '/v1/job/t14/allocations', 'secret-token');
      await get(target.address, '/v1/job/missing');
      await call(target.address, '/v1/whatever', { method: 'DELETE' });

      // Assert
      expect(control.counters()).toEqual({
        'GET /v1/job/:id/allocations': 2,
        'GET /v1/job/:id': 1,
        'DELETE (unmatched)': 1,
        total: 4,
        'total:blocking': 1,
        'total:errors': 2,
      });
      const log = control.requestLog();
      expect(log.map((e) => [e.method, e.path, e.query, e.status])).toEqual([
        ['GET', '/v1/job/t14/allocations', 'index=1', 200],
        ['GET', '/v1/job/t14/allocations', '', 200],
        ['GET', '/v1/job/missing', '', 404],
        ['DELETE', '/v1/whatever', '', 404],
      ]);
      expect(log[1]?.token).toBe('redacted');
      expect(JSON.stringify(log)).not.toContain('secret-token');
    });
  });

  describe('/_sim over HTTP', () => {
    itSim('seeds, reads state, changes nodes, injects faults, counts and resets', async () => {
      // Arrange
      const scenario = { nodes: [{ id: 'n1', name: 'n1' }], jobs: [job('web', 'service', [group('g', 1)])] };

      // Act
      const seeded = await call(target.address, '/_sim/seed', { method: 'POST', body: scenario });
      const state = await get<{ Allocations: AllocListStub[]; Index: number }>(target.address, '/_sim/state');
      const down = await put(target.address, '/_sim/node/n1/status', { status: 'down' });
      const badStatus = await put(target.address, '/_sim/node/n1/status', { status: 'sideways' });
      const unknownNode = await put(target.address, '/_sim/node/nope/eligibility', { eligible: false });
      await call(target.address, '/_sim/faults', {
        method: 'POST',
        body: { pathSuffix: '/v1/jobs', status: 503, body: 'nope' },
      });
      const faulted = await get(target.address, '/v1/jobs');
      const counters = await get<Record<string, number>>(target.address, '/_sim/counters');
      const requests = await get<unknown[]>(target.address, '/_sim/requests');
      const reset = await call(target.address, '/_sim/reset', { method: 'POST' });
      const after = await get<JobListStub[]>(target.address, '/v1/jobs');
      const badScenario = await call(target.address, '/_sim/seed', {
        method: 'POST',
        body: { nodes: [{ name: 5 }] },
      });

      // Assert
      expect(seeded.status).toBe(200);
      expect(state.json.Allocations.map((a) => a.ClientStatus)).toEqual(['running']);
      expect(down.status).toBe(200);
      expect([badStatus.status, badStatus.text]).toEqual([
        400,
        'Invalid node status "sideways": expected "ready", "down" or "disconnected"',
      ]);
      expect([unknownNode.status, unknownNode.text]).toEqual([404, 'Unknown node "nope"']);
      expect([faulted.status, faulted.text]).toEqual([503, 'nope']);
      expect(counters.json).toEqual({ 'GET /v1/jobs': 1, total: 1, 'total:errors': 1 });
      expect(requests.json).toHaveLength(1);
      expect(reset.status).toBe(200);
      expect(after.json).toEqual([]);
      expect([badScenario.status, badScenario.text]).toEqual([
        400,
        'Invalid scenario field "nodes[0].name": 5 (expected a non-empty string)',
      ]);
    });
  });
});

describe('demo scenario', () => {
  it('has example (web ×2, proxy ×3) on two nodes and a system job on each node', async () => {
    // Arrange
    const target = await openTarget({ scenario: 'demo' });

    // Act
    const example = (await get<AllocListStub[]>(target.address, '/v1/job/example/allocations')).json;
    const monitor = (await get<AllocListStub[]>(target.address, '/v1/job/node-monitor/allocations')).json;
    await target.close();

    // Assert
    expect(example.filter((a) => a.TaskGroup === 'web')).toHaveLength(2);
    expect(example.filter((a) => a.TaskGroup === 'proxy')).toHaveLength(3);
    expect(new Set(example.map((a) => a.NodeID)).size).toBe(2);
    expect(monitor.map((a) => a.JobType)).toEqual(['system', 'system']);
    expect(new Set(monitor.map((a) => a.NodeID)).size).toBe(2);
    expect([...example, ...monitor].every((a) => a.ClientStatus === 'running')).toBe(true);
  });
});
