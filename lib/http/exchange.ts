/**
 * One HTTP request and its whole answer over Node's own `http`/`https` agents. Node's built-in
 * client (its parser is compiled into Node) costs a command nothing to load, where undici's
 * WebAssembly parser cost ~250 ms of CPU and ~50 MB of memory on the first request of every
 * run: more than a whole job-not-found answer may take. Node's agents carry the same TLS
 * settings (private CA, client certificate, server name) undici's did.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type * as Https from 'node:https';
import { createRequire } from 'node:module';

/**
 * `node:https`, required when an `https:` pool is made: it loads `node:tls` and `node:crypto`,
 * about 15 ms of CPU that a command talking plain HTTP (a dev agent, a sidecar) never uses.
 */
const https = (): typeof Https => createRequire(import.meta.url)('node:https');

/** Error code of a connection not open within its time limit (undici's name for it, kept). */
export const CONNECT_TIMEOUT_CODE = 'UND_ERR_CONNECT_TIMEOUT';

/** How long an idle kept-alive connection stays open when the server gives no `Keep-Alive` hint. */
const IDLE_SOCKET_MS = 60_000;

/** The pooled connections to one Nomad address. */
export interface ConnectionPool {
  readonly agent: HttpAgent;
  readonly secure: boolean;
  /** Time to open a connection (TCP, then TLS), in ms. */
  readonly connectMs: number;
  /** Exchanges not yet settled: closing waits for them. */
  readonly inFlight: Set<Promise<unknown>>;
}

/**
 * A keep-alive pool for `origin`. `tls` holds Node's TLS options (`ca`, `cert`, `key`,
 * `servername`, `rejectUnauthorized`) and is used for `https:` only.
 */
export function createPool(origin: URL, tls: Record<string, unknown>, connectMs: number): ConnectionPool {
  const secure = origin.protocol === 'https:';
  // `timeout` only ends idle sockets (Node then also honours a server's shorter Keep-Alive hint,
  // as undici did); a request in flight is limited by the transport's own timer.
  const options = { keepAlive: true, timeout: IDLE_SOCKET_MS };
  const agent = secure ? new (https().Agent)({ ...options, ...tls }) : new HttpAgent(options);
  return { agent, secure, connectMs, inFlight: new Set() };
}

/** What came back: status, headers and the raw body. */
export interface Exchange {
  readonly statusCode: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** What to send. */
export interface ExchangeRequest {
  readonly method: 'GET' | 'PUT' | 'DELETE';
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: string | undefined;
  /** Ends the exchange (an AbortError) at any point. */
  readonly signal: AbortSignal;
}

function connectTimeout(pool: ConnectionPool): Error {
  const error = new Error(`Connect Timeout Error (timeout: ${pool.connectMs}ms)`);
  return Object.assign(error, { code: CONNECT_TIMEOUT_CODE });
}

/**
 * Sends one request and reads the whole answer. Rejects with Node's socket, TLS or abort error
 * (its `code` intact) or, when no connection opened within `connectMs`, with one coded
 * {@link CONNECT_TIMEOUT_CODE}.
 */
export function exchange(pool: ConnectionPool, req: ExchangeRequest): Promise<Exchange> {
  const body = req.body === undefined ? undefined : Buffer.from(req.body, 'utf8');
  const headers =
    req.method === 'PUT' ? { ...req.headers, 'content-length': String(body?.length ?? 0) } : req.headers;
  const send = pool.secure ? https().request : httpRequest;
  const exchanged = new Promise<Exchange>((resolve, reject) => {
    const outgoing = send(req.url, { method: req.method, headers, agent: pool.agent, signal: req.signal });
    outgoing.once('socket', (socket) => {
      // A kept-alive socket is already open; only a new one has to connect in time.
      if (!socket.connecting) return;
      const timer = setTimeout(() => outgoing.destroy(connectTimeout(pool)), pool.connectMs);
      socket.once(pool.secure ? 'secureConnect' : 'connect', () => clearTimeout(timer));
      outgoing.once('close', () => clearTimeout(timer));
    });
    outgoing.once('error', reject);
    outgoing.once('response', (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.once('error', reject);
      incoming.once('end', () =>
        resolve({
          statusCode: incoming.statusCode ?? 0,
          headers: incoming.headers,
          body: Buffer.concat(chunks),
        }),
      );
    });
    outgoing.end(body);
  });
  pool.inFlight.add(exchanged);
  const settled = () => pool.inFlight.delete(exchanged);
  exchanged.then(settled, settled);
  return exchanged;
}

/**
 * Closes the pool once the requests in flight have finished (their sockets are then idle), as
 * undici's `Agent.close` did: nothing stays open after the last answer.
 */
export async function closePool(pool: ConnectionPool): Promise<void> {
  await Promise.allSettled([...pool.inFlight]);
  pool.agent.destroy();
}
