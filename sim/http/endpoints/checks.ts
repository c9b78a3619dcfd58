/**
 * `GET /v1/client/allocation/:id/checks` (and `/v1/allocation/:id/checks`): the latest result of
 * each Nomad service check, as the allocation's client holds them. Like Nomad, not a blocking
 * query and no `X-Nomad-Index`; `null` when there are none (no Nomad checks, or a killed or failed
 * allocation); any method.
 */
import { checkResults } from '../../model/checks';
import type { ApiEnv, ApiRequest, ApiResponse } from '../api';
import { notFound, principalOf } from '../api';

/** Nomad's checks RPC: the allocation first, then `read-job` on its namespace, then a path to its node. */
export function readChecks(env: ApiEnv, req: ApiRequest, id: string): ApiResponse {
  const principal = principalOf(env, req);
  const { store } = env.cluster.ctx;
  const record = store.allocs.get(id);
  if (!record) throw notFound(`Unknown allocation "${id}"`);
  env.acl.require(principal, record.alloc.Namespace ?? 'default', 'read-job');
  const node = store.nodes.get(record.alloc.NodeID ?? '');
  if (!node) throw notFound(`Unknown node ${record.alloc.NodeID ?? ''}`);
  if (node.node.Status !== 'ready') throw notFound('No path to node');
  return { status: 200, body: checkResults(record) };
}
