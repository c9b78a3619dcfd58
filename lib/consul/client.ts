/**
 * `ConsulClient`: the one piece of this project that speaks HTTP to Consul, for the health gate's
 * reads of a service's checks (Consul's `api.Health().Checks`). It never writes.
 */
import { inspect } from 'node:util';
import { createPool } from '../http/exchange';
import { resolveBackoff, withRetry } from '../http/retry';
import { nodeTlsOptions } from '../http/tls';
import type { ConsulClientConfig } from './config';
import { ConsulAbortedError, ConsulConfigError, isTransientConsulError } from './errors';
import { decodeChecks } from './private/decode';
import { ConsulTransport } from './private/transport';
import type { ConsulChecksAnswer, ConsulQueryOptions } from './types';

/** Consul's longest blocking hold (`maxQueryTime`, 10 minutes) and its jitter (wait/16): a held read's time limit. */
const MAX_HOLD_MS = Math.ceil((600_000 * 17) / 16);
const DEFAULT_CONNECT_MS = 10_000;
const DEFAULT_REQUEST_MS = 60_000;

function header(headers: Record<string, string | string[] | undefined>, name: string): string {
  const raw = headers[name];
  return (Array.isArray(raw) ? raw[0] : raw) ?? '';
}

/** Typed, read-only client of Consul's health API. */
export class ConsulClient {
  /** `http(s)://host:port` of the Consul agent (plus any path prefix); holds no secret. */
  public readonly address: string;
  private readonly transport: ConsulTransport;
  private readonly retry: ReturnType<typeof resolveBackoff>;

  private constructor(config: ConsulClientConfig, transport: ConsulTransport) {
    this.address = config.address;
    this.transport = transport;
    this.retry = resolveBackoff(config.retry);
  }

  /**
   * Reads the TLS files and builds the connection pool; no request is made.
   * @throws ConsulConfigError on an unreadable CA, certificate or key, or a certificate without its key.
   */
  public static create(config: ConsulClientConfig): ConsulClient {
    const secure = config.address.startsWith('https:');
    const tls =
      secure && config.tls !== undefined
        ? nodeTlsOptions(config.tls, {
            fail: (reason, cause) => new ConsulConfigError(reason, cause === undefined ? {} : { cause }),
            unpairedText: 'both client cert and client key must be provided',
          })
        : {};
    const pool = createPool(new URL(config.address), tls, config.connectMs ?? DEFAULT_CONNECT_MS);
    const transport = new ConsulTransport(
      config.address,
      pool,
      config.token,
      config.requestMs ?? DEFAULT_REQUEST_MS,
    );
    return new ConsulClient(config, transport);
  }

  /**
   * `GET /v1/health/checks/<service>`: every check of every instance of the service, node checks
   * excluded (Consul lists only the service's own). With `index` it is a blocking query: Consul holds
   * it until the checks change or `wait` runs out. Retried on an unreachable Consul and on 5xx.
   * @throws ConsulUnreachableError, ConsulTokenRefusedError, ConsulAbortedError, ConsulError
   */
  public async serviceChecks(service: string, opts: ConsulQueryOptions = {}): Promise<ConsulChecksAnswer> {
    const path = `/v1/health/checks/${encodeURIComponent(service)}`;
    const params = new URLSearchParams();
    const blocking = opts.index !== undefined && opts.index !== '' && opts.index !== '0';
    if (blocking) params.set('index', opts.index as string);
    if (opts.wait !== undefined && opts.wait !== '') params.set('wait', opts.wait);
    const what = this.transport.describe(path, params);
    const res = await withRetry(
      () => this.transport.get(path, params, blocking ? MAX_HOLD_MS : 0, opts.signal),
      isTransientConsulError,
      this.retry,
      opts.signal,
      () => new ConsulAbortedError(what),
    );
    return {
      checks: decodeChecks(`GET ${path}`, res.body),
      index: header(res.headers, 'x-consul-index'),
      filteredByAcls: header(res.headers, 'x-consul-results-filtered-by-acls') === 'true',
    };
  }

  /** Closes the connection pool; requests in flight finish first. */
  public close(): Promise<void> {
    return this.transport.close();
  }

  /** What `JSON.stringify` shows: the address only. */
  public toJSON(): { address: string } {
    return { address: this.address };
  }

  /** What `console.log` shows: the address only. */
  public [inspect.custom](): string {
    return `ConsulClient { address: '${this.address}' }`;
  }
}
