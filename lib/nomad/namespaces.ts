/**
 * Namespace endpoints of the Nomad client (`client.namespaces()`).
 */
import { decodeNamespaces } from './private/decode-cluster';
import type { Requester } from './private/requester';
import type { QueryOptions, QueryResult } from './query';
import type { Namespace } from './types';

/** Namespace endpoints, reached as `client.namespaces()`; mirrors Nomad's `api/namespace.go`. */
export class Namespaces {
  /** @internal built by `NomadClient`. */
  public constructor(private readonly http: Requester) {}

  /** `GET /v1/namespaces`: the namespaces the token may see (Nomad leaves the others out). */
  public list(q?: QueryOptions): Promise<QueryResult<Namespace[]>> {
    return this.http.query('/v1/namespaces', {}, q, decodeNamespaces);
  }
}
