/**
 * One HTTP attempt to Nomad over the pooled connections: the token in its header, a time limit
 * that covers a blocking query's hold, gzip bodies, and every failure mapped to a typed error.
 */
import { promisify } from 'node:util';
import { gunzip, gunzipSync } from 'node:zlib';
import { errorCode, goDialErrorText, isTlsErrorCode, messageOf } from '../../http/error-text';
import { CONNECT_TIMEOUT_CODE, closePool, exchange } from '../../http/exchange';
import type { RequestObserver } from '../../http/request-observer';
import {
  NomadAbortedError,
  NomadConnectionError,
  NomadError,
  NomadTimeoutError,
  NomadTlsError,
  UnexpectedResponseError,
} from '../errors';
import type { Connection } from './agent';

const gunzipAsync = promisify(gunzip);

/**
 * Compressed bodies up to this size are inflated on the main thread. Nomad gzips every answer,
 * `[]` included; the first asynchronous gunzip starts libuv's thread pool, about 4 ms of CPU a
 * job-not-found run spent for 22 bytes (docs/benchmarks.md, "The last milliseconds of a job not
 * found"), while inflating 64 KiB (a few hundred allocations' list) takes well under a millisecond.
 * Larger bodies still go to the pool, so the event loop keeps serving the run's timers.
 */
const INFLATE_INLINE_BYTES = 64 * 1024;

/** Default limit of one non-blocking attempt (see `TimeoutOptions.requestMs`). */
export const DEFAULT_REQUEST_MS = 60_000;

/** One HTTP attempt. */
export interface RawRequest {
  readonly method: 'GET' | 'PUT' | 'DELETE';
  /** Path with already-escaped segments, e.g. `/v1/job/a%2Fb`. */
  readonly path: string;
  readonly params: URLSearchParams;
  readonly body?: string;
  readonly signal?: AbortSignal | undefined;
  /** How long Nomad may hold this request (a blocking query), added to the time limit. */
  readonly holdMs: number;
}

/** A 200 answer (or a DELETE's 204). */
export interface RawResponse {
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** Errors seen before anything was written to a socket: the request provably never reached Nomad. */
const NEVER_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * Node says `socket hang up` when the server closes the connection before answering; the client
 * keeps saying `other side closed`, as it did before it spoke HTTP through Node's own agents.
 */
function reasonOf(err: unknown, code: string | undefined): string {
  const reason = messageOf(err);
  return code === 'ECONNRESET' && reason === 'socket hang up' ? 'other side closed' : reason;
}

/**
 * Maps a socket, TLS or connect-timeout failure to the client's typed errors, named `METHOD url`;
 * a failed dial reads as Go's (Nomad's CLI prints Go's words).
 */
function classify(err: unknown, method: string, url: string): NomadError {
  const what = `${method} ${url}`;
  const code = errorCode(err);
  const reason = reasonOf(err, code);
  if (code === CONNECT_TIMEOUT_CODE) {
    return new NomadTimeoutError(`${what}: ${reason}`, { cause: err });
  }
  if (isTlsErrorCode(code)) {
    return new NomadTlsError(`${what}: TLS handshake failed: ${reason}`, { cause: err });
  }
  const neverSent = code !== undefined && NEVER_SENT_CODES.has(code);
  const message = goDialErrorText(err, method, url) ?? `${what}: ${reason}`;
  return new NomadConnectionError(message, !neverSent, code, { cause: err });
}

/**
 * The body as text. We send `Accept-Encoding: gzip` (as Nomad's client does) so large allocation
 * lists travel compressed; Node's client leaves decoding to its caller.
 */
async function decodeBody(raw: Buffer, encoding: unknown): Promise<string> {
  if (encoding === 'gzip' && raw.length > 0) {
    const inflated = raw.length <= INFLATE_INLINE_BYTES ? gunzipSync(raw) : await gunzipAsync(raw);
    return inflated.toString('utf8');
  }
  return raw.toString('utf8');
}

/** Sends requests over the shared connection pool; knows the secrets, never puts them in a message. */
export class Transport {
  public constructor(
    private readonly connection: Connection,
    private readonly token: string | undefined,
    private readonly requestMs: number,
    private readonly onRequest?: (request: string) => void,
    private readonly observer?: RequestObserver,
  ) {}

  /** Closes the pool; requests in flight are allowed to finish. */
  public close(): Promise<void> {
    return closePool(this.connection.pool);
  }

  /** `METHOD url` for messages: the URL holds no secret (the token travels in a header). */
  public describe(req: Pick<RawRequest, 'method' | 'path' | 'params'>): string {
    return `${req.method} ${this.url(req)}`;
  }

  private url(req: Pick<RawRequest, 'path' | 'params'>): string {
    // Sorted by key, as Go's `url.Values.Encode` writes Nomad's (it shows in error messages).
    const params = new URLSearchParams(req.params);
    params.sort();
    const query = params.toString();
    return `${this.connection.origin}${req.path}${query === '' ? '' : `?${query}`}`;
  }

  /** One attempt: resolves on 200 (a DELETE on 204 too), throws a typed {@link NomadError} otherwise. */
  public async send(req: RawRequest): Promise<RawResponse> {
    const url = this.url(req);
    const what = `${req.method} ${url}`;
    if (req.signal?.aborted) throw new NomadAbortedError(`${what}: request aborted`);
    this.onRequest?.(what);
    const settled = this.observer?.sent(what, req.holdMs);

    const limitMs = this.requestMs + req.holdMs;
    const timeout = AbortSignal.timeout(limitMs);
    const signal = req.signal === undefined ? timeout : AbortSignal.any([req.signal, timeout]);
    try {
      const res = await exchange(this.connection.pool, {
        method: req.method,
        url,
        headers: this.headers(),
        body: req.body,
        signal,
      });
      const body = await decodeBody(res.body, res.headers['content-encoding']);
      // Nomad answers a deleted variable with 204 No Content (its client accepts it for DELETE only).
      if (res.statusCode !== 200 && !(req.method === 'DELETE' && res.statusCode === 204)) {
        throw new UnexpectedResponseError(res.statusCode, this.redact(body));
      }
      return { headers: res.headers, body };
    } catch (err) {
      if (err instanceof NomadError) throw err;
      if (req.signal?.aborted) throw new NomadAbortedError(`${what}: request aborted`, { cause: err });
      if (timeout.aborted)
        throw new NomadTimeoutError(`${what}: no response within ${limitMs} ms`, { cause: err });
      throw classify(err, req.method, url);
    } finally {
      settled?.();
    }
  }

  private headers(): Record<string, string> {
    const headers: Record<string, string> = { 'accept-encoding': 'gzip' };
    if (this.token !== undefined && this.token !== '') headers['x-nomad-token'] = this.token;
    if (this.connection.authorization !== undefined) headers['authorization'] = this.connection.authorization;
    return headers;
  }

  /** A server (or proxy) that echoes request headers must not smuggle the token into an error message. */
  private redact(body: string): string {
    return this.token !== undefined && this.token !== '' && body.includes(this.token)
      ? body.split(this.token).join('<redacted>')
      : body;
  }
}
