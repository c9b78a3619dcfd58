/**
 * Node endpoints of the Nomad client (`client.nodes()`).
 */
import { decodeNode, decodeNodes } from './private/decode-eval-node';
import type { Requester } from './private/requester';
import { type PageOptions, type QueryOptions, type QueryResult, setPageParams } from './query';
import type { Node, NodeListStub } from './types';

/** Node endpoints, reached as `client.nodes()`. */
export class Nodes {
  /** @internal built by `NomadClient`. */
  public constructor(private readonly http: Requester) {}

  /**
   * `GET /v1/nodes?prefix=&filter=&per_page=&next_token=`: nodes whose ID starts with `prefix`
   * (Nomad's `PrefixList`; an odd-length prefix is refused by Nomad, see `sanitizeNodePrefix`)
   * and that pass `filter`. Needs `node:read`.
   */
  public list(
    opts: { prefix?: string; filter?: string } & PageOptions = {},
    q?: QueryOptions,
  ): Promise<QueryResult<NodeListStub[]>> {
    const params: Record<string, string> = {};
    if (opts.prefix !== undefined && opts.prefix !== '') params['prefix'] = opts.prefix;
    if (opts.filter !== undefined && opts.filter !== '') params['filter'] = opts.filter;
    setPageParams(params, opts);
    return this.http.query('/v1/nodes', params, q, decodeNodes);
  }

  /** `GET /v1/node/:id`. */
  public info(nodeId: string, q?: QueryOptions): Promise<QueryResult<Node>> {
    return this.http.query(`/v1/node/${encodeURIComponent(nodeId)}`, {}, q, decodeNode);
  }
}
