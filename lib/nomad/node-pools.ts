/**
 * Node pool endpoints of the Nomad client (`client.nodePools()`).
 */
import { decodeNodePool } from './private/decode-cluster';
import type { Requester } from './private/requester';
import type { QueryOptions, QueryResult } from './query';
import type { NodePool } from './types';

/** Node pool endpoints, reached as `client.nodePools()`; mirrors Nomad's `api/node_pools.go`. */
export class NodePools {
  /** @internal built by `NomadClient`. */
  public constructor(private readonly http: Requester) {}

  /** `GET /v1/node/pool/:name`; an unknown pool is a 404 (`UnexpectedResponseError`). Needs `node:read`. */
  public info(name: string, q?: QueryOptions): Promise<QueryResult<NodePool>> {
    return this.http.query(`/v1/node/pool/${encodeURIComponent(name)}`, {}, q, decodeNodePool);
  }
}
