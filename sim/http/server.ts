/**
 * The HTTP front: decodes requests, applies faults, routes `/v1` to the endpoint modules
 * and `/_sim` to the control API, counts and logs, and answers in Nomad's format (JSON for
 * success, text/plain bodies for errors). It never lets a handler error crash the process.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { SimHttpError } from '../errors';
import { type ApiEnv, type ApiRequest, type ApiResponse, INVALID_METHOD, requireOwnRegion } from './api';
import type { Faults } from './faults';
import { jobOfRequest, type RequestJob } from './request-job';
import { type Match, matchRoute } from './router';
import type { RequestStats } from './stats';

/** Request bodies above this are refused (a job of 10,000 groups is far below it). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

export interface ServerDeps {
  env: ApiEnv;
  faults: Faults;
  stats: RequestStats;
  now: () => number;
  control: (req: ApiRequest) => Promise<ApiResponse>;
  /** The API served under `/v1`: Nomad's (the default) or the simulator's Consul. */
  api?: ServedApi;
}

/** Which API a server speaks: its routes and the header its ACL token comes in. */
export interface ServedApi {
  readonly match: (path: string) => Match | undefined;
  /** Lower-case header name; `Authorization: Bearer` is accepted too, as by Nomad and Consul. */
  readonly tokenHeader: string;
  /** The job a request is about, recorded in the request log. */
  readonly jobOf?: (env: ApiEnv, match: Match, query: URLSearchParams) => RequestJob | undefined;
}

const NOMAD_API: ServedApi = { match: matchRoute, tokenHeader: 'x-nomad-token', jobOf: jobOfRequest };

function tokenOf(req: IncomingMessage, api: ServedApi): string | undefined {
  const header = req.headers[api.tokenHeader];
  if (typeof header === 'string' && header !== '') return header;
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ')) return auth.slice('Bearer '.length);
  return undefined;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new SimHttpError(413, 'Request body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, response: ApiResponse): void {
  if (res.destroyed || res.headersSent) return;
  // Errors are text; a 409 that carries the conflicting object (a variable's lock) is JSON, as in Nomad.
  const isText = response.status !== 200 && (typeof response.body !== 'object' || response.body === null);
  // Encoded once: a 50,000-allocation list is ~57 MB, and measuring then writing a string encodes it twice.
  const payload = Buffer.from(isText ? String(response.body ?? '') : JSON.stringify(response.body));
  res.writeHead(response.status, {
    'Content-Type': isText ? 'text/plain; charset=utf-8' : 'application/json',
    'Content-Length': payload.length,
    ...response.headers,
  });
  res.end(payload);
}

function errorResponse(error: unknown): ApiResponse {
  if (error instanceof SimHttpError) return { status: error.status, body: error.message };
  return { status: 500, body: error instanceof Error ? error.message : String(error) };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function handle(deps: ServerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const method = req.method ?? 'GET';
  const aborter = new AbortController();
  res.on('close', () => aborter.abort());
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    send(res, { status: 400, body: 'invalid URL escape' });
    return;
  }
  const api = deps.api ?? NOMAD_API;
  const token = tokenOf(req, api);
  const request = (body: string): ApiRequest => ({
    method,
    path,
    query: url.searchParams,
    body,
    token,
    signal: aborter.signal,
  });

  if (path === '/_sim' || path.startsWith('/_sim/')) {
    try {
      send(res, await deps.control(request(await readBody(req))));
    } catch (error) {
      send(res, errorResponse(error));
    }
    return;
  }

  const match = path.startsWith('/v1/') ? api.match(path) : undefined;
  const key = match ? `${method} ${match.route.pattern}` : `${method} (unmatched)`;
  const blocking = method === 'GET' && Number(url.searchParams.get('index') ?? 0) > 0;
  const about = match && api.jobOf ? api.jobOf(deps.env, match, url.searchParams) : undefined;
  const log = (status: number): void =>
    deps.stats.record(
      key,
      {
        time: deps.now(),
        method,
        path: url.pathname,
        query: url.search.replace(/^\?/, ''),
        status,
        ...(about !== undefined ? { namespace: about.namespace, job: about.job } : {}),
        ...(token !== undefined ? { token: 'redacted' as const } : {}),
      },
      blocking,
    );

  const action = deps.faults.decide(method, path);
  if (action.latencyMs > 0) await delay(action.latencyMs);
  if (action.kind === 'reset') {
    log(0);
    req.socket.destroy();
    return;
  }
  if (action.kind === 'no-leader') {
    log(500);
    send(res, { status: 500, body: 'No cluster leader', headers: { 'X-Nomad-KnownLeader': 'false' } });
    return;
  }
  if (action.kind === 'status' && !action.afterHandling) {
    log(action.status);
    send(res, { status: action.status, body: action.body });
    return;
  }

  let response: ApiResponse;
  try {
    const body = await readBody(req);
    // Nomad's root fall-through handler: a bare 404 with no body.
    if (!match) response = { status: 404, body: '' };
    else if (match.route.methods !== '*' && !match.route.methods.includes(method)) {
      response = { status: 405, body: INVALID_METHOD };
    } else {
      const apiRequest = request(body);
      requireOwnRegion(deps.env, apiRequest);
      response = await match.route.handler(deps.env, apiRequest, match.params);
    }
  } catch (error) {
    response = errorResponse(error);
  }
  if (action.kind === 'status') response = { status: action.status, body: action.body };
  log(response.status);
  send(res, response);
}

/** An HTTP server for the simulator; call `listen(port, '127.0.0.1')` on it. */
export function createSimServer(deps: ServerDeps): Server {
  const server = createServer((req, res) => {
    handle(deps, req, res).catch((error: unknown) => send(res, errorResponse(error)));
  });
  // Blocking queries may hold a request for over 5 minutes.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  return server;
}
