/**
 * Nodes and node pools (Nomad's `command/agent/node_endpoint.go` and `node_pool_endpoint.go`):
 * `/v1/nodes` with `prefix` (as Nomad's UUID index reads it) and `filter` (on the whole node), `/v1/node/:id`,
 * `/v1/node/:id/allocations`, `/v1/node/pools` and `/v1/node/pool/:name`. Nodes need
 * `node:read`; pools need `node_pool:read` on each pool, and the list keeps only those.
 */
import type { Node } from '../../../lib/nomad/types';
import { listFilter, NODE } from '../../filter';
import { renderAlloc } from '../../model/render';
import type { ApiEnv, ApiRequest, ApiResponse, Route } from '../api';
import { notFound, ok, principalOf } from '../api';
import { blockingQuery } from '../blocking';
import { byId } from '../reads';
import { uuidPrefixMatcher } from '../uuid-prefix';

function listNodes(env: ApiEnv, req: ApiRequest): Promise<ApiResponse> {
  env.acl.requireNodeRead(principalOf(env, req));
  const { store } = env.cluster.ctx;
  const matchesPrefix = uuidPrefixMatcher(req.query.get('prefix') ?? '');
  const filter = listFilter(req.query.get('filter'), NODE);
  return blockingQuery(env, req, {
    tables: ['nodes'],
    resourceIndex: () => store.last('nodes'),
    render: () =>
      ok(
        [...store.nodes.values()]
          .map((r) => r.node)
          .filter((n) => matchesPrefix(n.ID) && (filter?.test(n) ?? true))
          .map(nodeStub),
      ),
  });
}

/**
 * Nomad's `NodeListStub`: the list leaves out what only `GET /v1/node/:id` has, `Meta` among it,
 * so a caller that needs a node's meta must filter on it or read the node.
 */
function nodeStub(node: Node): Node {
  const { Meta: _meta, ...stub } = node as Node & { Meta?: unknown };
  return stub;
}

function readNode(env: ApiEnv, req: ApiRequest, id: string): Promise<ApiResponse> {
  env.acl.requireNodeRead(principalOf(env, req));
  const { store } = env.cluster.ctx;
  return blockingQuery(env, req, {
    tables: ['nodes'],
    resourceIndex: () => store.nodes.get(id)?.node.ModifyIndex ?? store.last('nodes'),
    render: () => {
      const node = store.nodes.get(id);
      if (!node) throw notFound('node not found');
      return ok(node.node);
    },
  });
}

/**
 * `GET /v1/node/:id/allocations` (`Node.GetAllocs`): every allocation placed on the node, with
 * its job, left out where the token may not `read-job` in the allocation's namespace.
 */
function nodeAllocations(env: ApiEnv, req: ApiRequest, id: string): Promise<ApiResponse> {
  const principal = principalOf(env, req);
  env.acl.requireNodeRead(principal);
  const { store } = env.cluster.ctx;
  return blockingQuery(env, req, {
    tables: ['allocs'],
    resourceIndex: () => store.last('allocs'),
    render: () =>
      ok(
        store
          .allocsOfNode(id)
          .filter((r) => env.acl.allowed(principal, r.alloc.Namespace ?? 'default', 'read-job'))
          .map(renderAlloc),
      ),
  });
}

function listNodePools(env: ApiEnv, req: ApiRequest): Promise<ApiResponse> {
  const principal = principalOf(env, req);
  const { store } = env.cluster.ctx;
  const prefix = req.query.get('prefix') ?? '';
  return blockingQuery(env, req, {
    tables: ['node_pools'],
    resourceIndex: () => store.last('node_pools'),
    render: () =>
      ok(
        [...store.nodePools.values()]
          .filter((p) => p.Name.startsWith(prefix) && env.acl.allowedNodePool(principal, p.Name))
          .sort((a, b) => (a.Name < b.Name ? -1 : 1)),
      ),
  });
}

function readNodePool(env: ApiEnv, req: ApiRequest, name: string): Promise<ApiResponse> {
  env.acl.requireNodePoolRead(principalOf(env, req), name);
  const { store } = env.cluster.ctx;
  return blockingQuery(env, req, {
    tables: ['node_pools'],
    resourceIndex: () => store.nodePools.get(name)?.ModifyIndex ?? store.last('node_pools'),
    render: () => {
      const pool = store.nodePools.get(name);
      if (!pool) throw notFound('node pool not found');
      return ok(pool);
    },
  });
}

/** Node routes with a fixed path. */
export const nodeFixedRoutes: Route[] = [
  { pattern: '/v1/nodes', methods: ['GET'], handler: listNodes },
  { pattern: '/v1/node/pools', methods: ['GET'], handler: listNodePools },
];

/** Node routes of the form `/v1/node/:id[/suffix]` (more specific first). */
export const nodeIdRoutes: Array<{ prefix: string; suffix?: string; route: Route }> = [
  {
    prefix: '/v1/node/',
    suffix: '/allocations',
    route: byId('/v1/node/:id/allocations', ['GET'], nodeAllocations),
  },
  { prefix: '/v1/node/pool/', route: byId('/v1/node/pool/:name', ['GET'], readNodePool) },
  { prefix: '/v1/node/', route: byId('/v1/node/:id', ['GET'], readNode) },
];
