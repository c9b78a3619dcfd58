/** Request, response and environment types shared by the endpoint modules. */
import type { Acl, Principal } from '../acl';
import { SimHttpError } from '../errors';
import type { Cluster } from '../model/cluster';
import type { Table } from '../model/store';

/** A decoded HTTP request. `path` is the percent-decoded path, as Go's `URL.Path`. */
export interface ApiRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: string;
  token: string | undefined;
  /** Aborted when the client goes away (held blocking queries are released). */
  signal: AbortSignal;
}

/** What a handler answers: always JSON (errors are thrown as `SimHttpError` and sent as text/plain). */
export interface ApiResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Everything a handler may use. */
export interface ApiEnv {
  cluster: Cluster;
  acl: Acl;
  random: () => number;
  /** The agent's region (Nomad's `-region`, `global` by default). */
  region: string;
}

/** A handler for one route; `params` holds the path parameters (`id`). */
export type Handler = (
  env: ApiEnv,
  req: ApiRequest,
  params: Record<string, string>,
) => Promise<ApiResponse> | ApiResponse;

/** A route: its counter key pattern, allowed methods (`*`: any) and handler. */
export interface Route {
  pattern: string;
  methods: readonly string[] | '*';
  handler: Handler;
}

export const INVALID_METHOD = 'Invalid method';

/** 200 with a JSON body and, for writes and queries, `X-Nomad-Index`. */
export function ok(body: unknown, index?: number): ApiResponse {
  return index === undefined ? { status: 200, body } : { status: 200, body, headers: indexHeaders(index) };
}

/** Nomad's query-meta headers; the index is never 0 (Nomad's `setIndex`). */
export function indexHeaders(index: number): Record<string, string> {
  return {
    'X-Nomad-Index': String(Math.max(1, index)),
    'X-Nomad-KnownLeader': 'true',
    'X-Nomad-LastContact': '0',
  };
}

/** The request's namespace (`default` when absent). */
export function namespaceOf(req: ApiRequest): string {
  return req.query.get('namespace') || 'default';
}

/** Authenticates the request (403 for an unknown token). */
export function principalOf(env: ApiEnv, req: ApiRequest): Principal {
  return env.acl.resolve(req.token);
}

/** Tables a blocking query depends on, with the resource index and the rendering. */
export interface BlockingSpec {
  tables: readonly Table[];
  resourceIndex: () => number;
  render: () => ApiResponse;
  /** The query-meta headers of an answer at `index`. @default Nomad's {@link indexHeaders} */
  indexHeaders?: (index: number) => Record<string, string>;
}

/**
 * Nomad forwards a request for another region to a server there; a lone agent has none, so
 * its RPC layer answers `No path to region` (a 500), whatever the endpoint.
 */
export function requireOwnRegion(env: ApiEnv, req: ApiRequest): void {
  const region = req.query.get('region');
  if (region !== null && region !== '' && region !== env.region)
    throw new SimHttpError(500, 'No path to region');
}

export function notFound(message: string): SimHttpError {
  return new SimHttpError(404, message);
}
