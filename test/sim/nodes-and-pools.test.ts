// Scenario: what a fleet reads to scope its restarts to nodes, under ACLs: `/v1/nodes` with
// `prefix` and `filter`, a node's allocations, node pools (the built-in `all` and `default`
// plus the scenario's), and the namespaces a token can see. Node reads need `node:read`, pool
// reads `node_pool:read` per pool, as in Nomad's ACL; a job runs only on nodes of its pool.
import type { Allocation, Node } from '../../lib/nomad/types';
import type { Scenario } from '../../sim/index';
import { group, job } from './helpers/fixtures';
import { get } from './helpers/http';
import { openTarget, simControl, type Target } from './helpers/target';

const node = (id: string, datacenter: string, pool: string, meta: Record<string, string> = {}) => ({
  id,
  name: id,
  datacenter,
  pool,
  meta,
});

const scenario: Scenario = {
  namespaces: ['prod', 'staging'],
  nodePools: [{ name: 'gpu', description: 'GPU nodes', meta: { kind: 'accelerated' } }],
  nodes: [
    node('a1b2c3d4-0000-4000-8000-000000000001', 'dc1', 'default'),
    node('a1b2ffff-0000-4000-8000-000000000002', 'dc2', 'default'),
    node('c0ffee00-0000-4000-8000-000000000003', 'dc1', 'gpu', { rack: 'r7' }),
  ],
  jobs: [
    job('web', 'service', [group('web', 4, {}, '1h')], { Namespace: 'prod', Datacenters: ['dc1', 'dc2'] }),
    Object.assign(job('train', 'batch', [group('train', 2, {}, '1h')], { Namespace: 'staging' }), {
      NodePool: 'gpu',
    }),
  ],
  acl: {
    enabled: true,
    tokens: [
      { secret: 'root', management: true },
      {
        secret: 'fleet',
        namespaces: {
          default: ['list-jobs', 'read-job'],
          prod: ['list-jobs', 'read-job', 'alloc-lifecycle'],
        },
        nodeRead: true,
        nodePools: { default: 'read' },
      },
      { secret: 'no-nodes', namespaces: { prod: ['list-jobs', 'read-job'] } },
      { secret: 'nobody', namespaces: { prod: ['list-jobs'] } },
    ],
  },
};

let target: Target;
const read = <T>(path: string, token = 'fleet') => get<T>(target.address, path, token);
const ids = (nodes: Node[]) => nodes.map((n) => n.ID.slice(0, 8)).sort();

describe('simulator: nodes and node pools', () => {
  beforeAll(async () => {
    target = await openTarget();
    simControl(target).seed(scenario);
  });
  afterAll(() => target.close());

  it('lists nodes by ID prefix and by a filter on the whole node', async () => {
    // Act
    const byPrefix = await read<Node[]>('/v1/nodes?prefix=a1b2');
    const byPool = await read<Node[]>(`/v1/nodes?filter=${encodeURIComponent('NodePool == "gpu"')}`);
    const byMeta = await read<Node[]>(
      `/v1/nodes?filter=${encodeURIComponent('Meta.rack == r7 or Datacenter == dc2')}`,
    );

    // Assert
    expect(ids(byPrefix.json)).toEqual(['a1b2c3d4', 'a1b2ffff']);
    expect(ids(byPool.json)).toEqual(['c0ffee00']);
    expect(ids(byMeta.json)).toEqual(['a1b2ffff', 'c0ffee00']);
  });

  it('lists node stubs without Meta, which only the node itself has', async () => {
    // Act
    const list = await read<Array<Record<string, unknown>>>('/v1/nodes?prefix=c0ffee00');
    const node = await read<Record<string, unknown>>('/v1/node/c0ffee00-0000-4000-8000-000000000003');

    // Assert
    expect(list.json[0]).toMatchObject({ NodePool: 'gpu', Datacenter: 'dc1' });
    expect(list.json[0]).not.toHaveProperty('Meta');
    expect(node.json['Meta']).toEqual({ rack: 'r7' });
  });

  it('reads a node prefix as Nomad’s UUID index does: hyphens ignored, odd lengths and non-hex refused', async () => {
    // Act
    const noHyphen = await read<Node[]>('/v1/nodes?prefix=c0ffee0000');
    const odd = await read('/v1/nodes?prefix=a1b');
    const notHex = await read('/v1/nodes?prefix=node');

    // Assert
    expect(ids(noHyphen.json)).toEqual(['c0ffee00']);
    expect([odd.status, odd.text]).toEqual([500, 'index error: Input (without hyphens) must be even length']);
    expect([notHex.status, notHex.text]).toEqual([
      500,
      "index error: Invalid UUID: encoding/hex: invalid byte: U+006E 'n'",
    ]);
  });

  it('refuses a malformed node filter with Nomad’s 400', async () => {
    // Act
    const answer = await read(`/v1/nodes?filter=${encodeURIComponent('NodePool ==')}`);

    // Assert
    expect(answer.status).toBe(400);
    expect(answer.text).toMatch(
      /^failed to create result paginator: failed to read filter expression: 1:12 \(11\): no match found/,
    );
  });

  it('answers 403 Permission denied to a token without node:read', async () => {
    // Act
    const list = await read('/v1/nodes', 'no-nodes');
    const allocs = await read('/v1/node/c0ffee00-0000-4000-8000-000000000003/allocations', 'no-nodes');

    // Assert
    expect([list.status, list.text]).toEqual([403, 'Permission denied']);
    expect([allocs.status, allocs.text]).toEqual([403, 'Permission denied']);
  });

  it('lists every namespace’s allocations only to a token that may read jobs in some namespace', async () => {
    // Act
    const asFleet = await read<Allocation[]>('/v1/allocations?namespace=*');
    const denied = await read('/v1/allocations?namespace=*', 'nobody');

    // Assert: the fleet token reads prod only (staging's train is left out).
    expect(new Set(asFleet.json.map((a) => `${a.Namespace}/${a.JobID}`))).toEqual(new Set(['prod/web']));
    expect([denied.status, denied.text]).toEqual([403, 'Permission denied']);
  });

  it('places a job only on the nodes of its pool', () => {
    // Act
    const state = simControl(target).state();
    const nodeOf = (jobId: string, ns: string) =>
      new Set(state.allocations({ jobId, namespace: ns }).map((a) => (a.NodeID ?? '').slice(0, 8)));

    // Assert
    expect(nodeOf('train', 'staging')).toEqual(new Set(['c0ffee00']));
    expect(nodeOf('web', 'prod')).toEqual(new Set(['a1b2c3d4', 'a1b2ffff']));
  });

  it('lists a node’s allocations with their jobs, leaving out namespaces the token may not read', async () => {
    // Act
    const asFleet = await read<Allocation[]>('/v1/node/c0ffee00-0000-4000-8000-000000000003/allocations');
    const asRoot = await read<Allocation[]>(
      '/v1/node/c0ffee00-0000-4000-8000-000000000003/allocations',
      'root',
    );
    const webNode = await read<Allocation[]>('/v1/node/a1b2c3d4-0000-4000-8000-000000000001/allocations');

    // Assert
    expect(asFleet.json).toEqual([]);
    expect(asRoot.json.map((a) => [a.JobID, a.Job?.ID])).toEqual([
      ['train', 'train'],
      ['train', 'train'],
    ]);
    expect(webNode.json.length).toBeGreaterThan(0);
    expect(webNode.json.every((a) => a.JobID === 'web' && a.Namespace === 'prod')).toBe(true);
  });

  it('lists the pools the token may read and reads one, with Nomad’s 404 for an unknown pool', async () => {
    // Act
    const all = await read<Array<{ Name: string }>>('/v1/node/pools', 'root');
    const limited = await read<Array<{ Name: string }>>('/v1/node/pools');
    const gpu = await read<{ Name: string; Description: string; Meta: unknown }>('/v1/node/pool/gpu', 'root');
    const denied = await read('/v1/node/pool/gpu');
    const unknown = await read('/v1/node/pool/nope', 'root');

    // Assert
    expect(all.json.map((p) => p.Name)).toEqual(['all', 'default', 'gpu']);
    expect(limited.json.map((p) => p.Name)).toEqual(['default']);
    expect(gpu.json).toMatchObject({ Name: 'gpu', Description: 'GPU nodes', Meta: { kind: 'accelerated' } });
    expect([denied.status, denied.text]).toEqual([403, 'Permission denied']);
    expect([unknown.status, unknown.text]).toEqual([404, 'node pool not found']);
  });

  it('lists only the namespaces the token has a capability in', async () => {
    // Act
    const asFleet = await read<Array<{ Name: string }>>('/v1/namespaces');
    const asRoot = await read<Array<{ Name: string }>>('/v1/namespaces', 'root');

    // Assert
    expect(asFleet.json.map((n) => n.Name).sort()).toEqual(['default', 'prod']);
    expect(asRoot.json.map((n) => n.Name).sort()).toEqual(['default', 'prod', 'staging']);
  });
});
