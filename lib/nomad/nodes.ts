/**
 * Node endpoints of the Nomad client (`client.nodes()`).
 */
import { decodeNode, decodeNodes } from './private/decode-eval-node';
import type { Requester } from './private/requester';
import type { QueryOptions, QueryResult } from './query';
import type { Node, NodeListStub } from './types';

/** Node endpoints, reached as `client.nodes()`. */
export class Nodes {
  /** @internal built by `NomadClient`. */
  public constructor(private readonly http: Requester) {}

  /** `GET /v1/nodes`. */
  public list(q?: QueryOptions): Promise<QueryResult<NodeListStub[]>> {
    return this.http.query('/v1/nodes', {}, q, decodeNodes);
  }

  /** `GET /v1/node/:id`. */
  public info(nodeId: string, q?: QueryOptions): Promise<QueryResult<Node>> {
    return this.http.query(`/v1/node/${encodeURIComponent(nodeId)}`, {}, q, decodeNode);
  }
}
