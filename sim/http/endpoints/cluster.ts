/** Evaluations, deployments, namespaces and leader status; the node routes are in nodes.ts. */
import { renderAllocStub } from '../../model/render';
import type { Store } from '../../model/store';
import type { ApiEnv, ApiRequest, ApiResponse, Route } from '../api';
import { ok, principalOf } from '../api';
import { blockingQuery } from '../blocking';
import { byId, namespaceRead, recordRead } from '../reads';
import { nodeFixedRoutes, nodeIdRoutes } from './nodes';

/** The evaluations and deployments tables: records of one namespace each, found by ID. */
type NamespacedTable = 'evals' | 'deployment';
const RECORDS = {
  evals: (store: Store) => store.evals,
  deployment: (store: Store) => store.deployments,
} satisfies Record<NamespacedTable, (store: Store) => ReadonlyMap<string, { Namespace?: string }>>;

/** `GET /v1/<kind>/:id` of a namespaced table, answering `notFoundText` (Nomad's) when it has no such record. */
function readRecord(table: NamespacedTable, notFoundText: string) {
  return (env: ApiEnv, req: ApiRequest, id: string): Promise<ApiResponse> =>
    recordRead(env, req, { table, find: () => RECORDS[table](env.cluster.ctx.store).get(id), notFoundText });
}

/** `GET /v1/<kinds>`: a namespaced table's records in the request's namespace. */
function listRecords(table: NamespacedTable) {
  return (env: ApiEnv, req: ApiRequest): Promise<ApiResponse> => {
    const { store } = env.cluster.ctx;
    return namespaceRead(env, req, (namespace) => ({
      tables: [table],
      resourceIndex: () => store.last(table),
      render: () => ok([...RECORDS[table](store).values()].filter((r) => r.Namespace === namespace)),
    }));
  };
}

function evalAllocs(env: ApiEnv, req: ApiRequest, id: string): Promise<ApiResponse> {
  const principal = principalOf(env, req);
  const { store } = env.cluster.ctx;
  const existing = store.evals.get(id);
  if (existing) env.acl.require(principal, existing.Namespace ?? 'default', 'read-job');
  return blockingQuery(env, req, {
    tables: ['allocs'],
    resourceIndex: () => store.last('allocs'),
    render: () =>
      ok([...store.allocs.values()].filter((r) => r.alloc.EvalID === id).map((r) => renderAllocStub(r))),
  });
}

/**
 * `GET /v1/namespaces` (`Namespace.ListNamespaces`): only the namespaces the token has some
 * capability in, never a 403, so a fleet's `namespace=*` plan can say which ones it could see.
 */
function listNamespaces(env: ApiEnv, req: ApiRequest): Promise<ApiResponse> {
  const principal = principalOf(env, req);
  const { store } = env.cluster.ctx;
  return blockingQuery(env, req, {
    tables: ['namespaces'],
    resourceIndex: () => store.last('namespaces'),
    render: () =>
      ok([...store.namespaces.values()].filter((ns) => env.acl.allowedNamespace(principal, ns.Name))),
  });
}

/** Routes with a fixed path. */
export const fixedRoutes: Route[] = [
  { pattern: '/v1/evaluations', methods: ['GET'], handler: listRecords('evals') },
  { pattern: '/v1/deployments', methods: ['GET'], handler: listRecords('deployment') },
  ...nodeFixedRoutes,
  { pattern: '/v1/namespaces', methods: ['GET'], handler: listNamespaces },
  { pattern: '/v1/status/leader', methods: ['GET'], handler: () => ok('127.0.0.1:4647', 1) },
];

/** Routes of the form `/v1/<kind>/:id[/suffix]` with IDs that never contain `/`. */
export const idRoutes: Array<{ prefix: string; suffix?: string; route: Route }> = [
  {
    prefix: '/v1/evaluation/',
    suffix: '/allocations',
    route: byId('/v1/evaluation/:id/allocations', ['GET'], evalAllocs),
  },
  {
    prefix: '/v1/evaluation/',
    route: byId('/v1/evaluation/:id', ['GET'], readRecord('evals', 'eval not found')),
  },
  {
    prefix: '/v1/deployment/',
    route: byId('/v1/deployment/:id', ['GET'], readRecord('deployment', 'deployment not found')),
  },
  ...nodeIdRoutes,
];
