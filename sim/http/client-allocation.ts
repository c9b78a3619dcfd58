/**
 * The allocation a client-answered request is about (restart, checks), found the way Nomad
 * forwards such an RPC to the allocation's client: the allocation first (404), then the
 * capability on its namespace (403), then a path to its node (404 `No path to node`).
 */
import type { AclCapability } from '../acl';
import type { AllocRecord } from '../model/store';
import type { ApiEnv, ApiRequest } from './api';
import { notFound, principalOf } from './api';

/** The allocation `id`, once the request may reach its client with `capability`. */
export function clientAllocation(
  env: ApiEnv,
  req: ApiRequest,
  id: string,
  capability: AclCapability,
): AllocRecord {
  const principal = principalOf(env, req);
  const { store } = env.cluster.ctx;
  const record = store.allocs.get(id);
  if (!record) throw notFound(`Unknown allocation "${id}"`);
  env.acl.require(principal, record.alloc.Namespace ?? 'default', capability);
  const node = store.nodes.get(record.alloc.NodeID ?? '');
  if (!node) throw notFound(`Unknown node ${record.alloc.NodeID ?? ''}`);
  if (node.node.Status !== 'ready') throw notFound('No path to node');
  return record;
}
