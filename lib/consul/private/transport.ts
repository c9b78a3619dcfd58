/**
 * One GET to Consul over pooled connections: the token in `X-Consul-Token`, a time limit that covers
 * a blocking query's hold, and every failure mapped to the Consul client's typed errors.
 */
import { errorCode, goDialErrorText, isTlsErrorCode, messageOf } from '../../http/error-text';
import { CONNECT_TIMEOUT_CODE, type ConnectionPool, closePool, exchange } from '../../http/exchange';
import { ConsulAbortedError, ConsulError, ConsulTokenRefusedError, ConsulUnreachableError } from '../errors';

/** A 200 answer. */
export interface ConsulResponse {
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** Consul's texts of a 403 that refuses the token itself, not one of its permissions on a resource. */
const TOKEN_REFUSED_TEXTS = ['ACL not found', 'Permission denied'];

/** Sends GETs to one Consul address; knows the token, never puts it in a message. */
export class ConsulTransport {
  public constructor(
    /** Origin plus any path prefix, as messages name Consul. */
    public readonly address: string,
    private readonly pool: ConnectionPool,
    private readonly token: string | undefined,
    private readonly requestMs: number,
  ) {}

  /** `GET url`, for messages: the URL holds no secret. */
  public describe(path: string, params: URLSearchParams): string {
    const query = params.toString();
    return `GET ${this.address}${path}${query === '' ? '' : `?${query}`}`;
  }

  /** One attempt: resolves on 200, throws a {@link ConsulError} subclass otherwise. */
  public async get(
    path: string,
    params: URLSearchParams,
    holdMs: number,
    signal: AbortSignal | undefined,
  ): Promise<ConsulResponse> {
    const what = this.describe(path, params);
    const url = what.slice('GET '.length);
    if (signal?.aborted) throw new ConsulAbortedError(what);
    const limitMs = this.requestMs + holdMs;
    const timeout = AbortSignal.timeout(limitMs);
    const headers: Record<string, string> = {};
    if (this.token !== undefined) headers['x-consul-token'] = this.token;
    let res: Awaited<ReturnType<typeof exchange>>;
    try {
      res = await exchange(this.pool, {
        method: 'GET',
        url,
        headers,
        signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
      });
    } catch (err) {
      if (signal?.aborted) throw new ConsulAbortedError(what, { cause: err });
      if (timeout.aborted)
        throw new ConsulUnreachableError(this.address, `${what}: no response within ${limitMs} ms`, {
          cause: err,
        });
      throw this.classify(err, url);
    }
    const body = this.redact(res.body.toString('utf8').trim());
    if (res.statusCode === 200) return { headers: res.headers, body };
    if (res.statusCode === 403 && TOKEN_REFUSED_TEXTS.some((text) => body.includes(text)))
      throw new ConsulTokenRefusedError(what, body);
    throw new ConsulError(`${what}: Unexpected response code: ${res.statusCode} (${body})`, {
      statusCode: res.statusCode,
      body,
    });
  }

  /** Closes the pool once the requests in flight are done. */
  public close(): Promise<void> {
    return closePool(this.pool);
  }

  /** A failed dial in Go's words (as Consul's CLI prints it), a refused certificate as such. */
  private classify(err: unknown, url: string): ConsulError {
    const code = errorCode(err);
    if (isTlsErrorCode(code))
      return new ConsulError(`GET ${url}: TLS handshake failed: ${messageOf(err)}`, undefined, {
        cause: err,
      });
    const detail =
      code === CONNECT_TIMEOUT_CODE
        ? `GET ${url}: ${messageOf(err)}`
        : (goDialErrorText(err, 'GET', url) ?? `GET ${url}: ${messageOf(err)}`);
    return new ConsulUnreachableError(this.address, detail, { cause: err });
  }

  /** A proxy that echoes request headers must not smuggle the token into an error message. */
  private redact(body: string): string {
    return this.token !== undefined && body.includes(this.token)
      ? body.split(this.token).join('<redacted>')
      : body;
  }
}
