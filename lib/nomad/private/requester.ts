/**
 * Sends one logical request (retries, blocking-query hold, query metadata) and decodes the answer.
 */

import { messageOf } from '../../http/error-text';
import { type Backoff, withRetry } from '../../http/retry';
import { isTransientNomadError, isUnappliedWriteError, NomadAbortedError, NomadDecodeError } from '../errors';
import type { QueryOptions, QueryResult, WriteOptions, WriteResult } from '../query';
import { MAX_BLOCKING_HOLD_MS } from '../query';
import type { DecodeContext } from './decode';
import type { RawRequest, RawResponse, Transport } from './transport';

/** Reads an unsigned integer header; missing or unparsable reads as 0, as Nomad's client treats the index. */
export function uintHeader(headers: RawResponse['headers'], name: string): number {
  const raw = headers[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : 0;
}

function parseJson(ctx: DecodeContext, body: string): unknown {
  try {
    return JSON.parse(body);
  } catch (err) {
    const reason = messageOf(err);
    throw new NomadDecodeError(`Error decoding response of ${ctx.endpoint}: invalid JSON: ${reason}`, {
      cause: err,
    });
  }
}

/** Turns endpoint calls into HTTP requests for one namespace/region scope, over a shared transport. */
export class Requester {
  public constructor(
    private readonly transport: Transport,
    private readonly backoff: Backoff,
    private readonly namespace: string | undefined,
    private readonly region: string | undefined,
  ) {}

  /** The same transport (and connection pool) for another namespace. */
  public withNamespace(namespace: string): Requester {
    return new Requester(this.transport, this.backoff, namespace, this.region);
  }

  /** The same transport (and connection pool) for another region. */
  public withRegion(region: string): Requester {
    return new Requester(this.transport, this.backoff, this.namespace, region);
  }

  private params(
    extra: Record<string, string>,
    opts: { namespace?: string | undefined; region?: string | undefined } | undefined,
  ): URLSearchParams {
    const params = new URLSearchParams(extra);
    // Like Nomad's setQueryOptions: a non-empty per-call value replaces the client's.
    const namespace = opts?.namespace || this.namespace;
    const region = opts?.region || this.region;
    if (region) params.set('region', region);
    if (namespace) params.set('namespace', namespace);
    return params;
  }

  /** A GET, retried on transient failures, with the blocking-query metadata of the answer. */
  public async query<T>(
    path: string,
    extra: Record<string, string>,
    q: QueryOptions | undefined,
    decode: (ctx: DecodeContext, value: unknown) => T,
  ): Promise<QueryResult<T>> {
    const params = this.params(extra, q);
    const index = q?.index ?? 0;
    const blocking = index > 0;
    if (blocking) params.set('index', String(Math.floor(index)));
    if (q?.waitMs !== undefined && q.waitMs > 0) params.set('wait', `${Math.floor(q.waitMs)}ms`);
    const holdMs = blocking ? Math.ceil(((q?.waitMs ?? MAX_BLOCKING_HOLD_MS) * 17) / 16) : 0;
    const req: RawRequest = { method: 'GET', path, params, signal: q?.signal, holdMs };
    const res = await withRetry(
      () => this.transport.send(req),
      isTransientNomadError,
      this.backoff,
      q?.signal,
      () => new NomadAbortedError(`${this.transport.describe(req)}: request aborted`),
    );
    const ctx = { endpoint: `GET ${path}` };
    const nextToken = res.headers['x-nomad-nexttoken'];
    return {
      value: decode(ctx, parseJson(ctx, res.body)),
      index: uintHeader(res.headers, 'x-nomad-index'),
      lastContact: uintHeader(res.headers, 'x-nomad-lastcontact'),
      knownLeader: res.headers['x-nomad-knownleader'] === 'true',
      ...(typeof nextToken === 'string' && nextToken !== '' ? { nextToken } : {}),
    };
  }

  /** A PUT whose JSON answer is decoded; retried only if it provably never reached Nomad. */
  public async write<T>(
    path: string,
    extra: Record<string, string>,
    body: unknown,
    w: WriteOptions | undefined,
    decode: (ctx: DecodeContext, value: unknown, index: number) => T,
  ): Promise<WriteResult<T>> {
    const res = await this.send('PUT', path, extra, body, w);
    const ctx = { endpoint: `PUT ${path}` };
    const index = uintHeader(res.headers, 'x-nomad-index');
    return { value: decode(ctx, parseJson(ctx, res.body), index), index };
  }

  /** A PUT whose answer carries nothing we use (the restart endpoint); resolves to the index, 0 if absent. */
  public async writeIgnoringBody(
    path: string,
    extra: Record<string, string>,
    body: unknown,
    w: WriteOptions | undefined,
  ): Promise<number> {
    const res = await this.send('PUT', path, extra, body, w);
    return uintHeader(res.headers, 'x-nomad-index');
  }

  /** A DELETE (its answer carries no body); resolves to the index, 0 if absent. Retried as a write is. */
  public async delete(
    path: string,
    extra: Record<string, string>,
    w: WriteOptions | undefined,
  ): Promise<number> {
    const res = await this.send('DELETE', path, extra, undefined, w);
    return uintHeader(res.headers, 'x-nomad-index');
  }

  private send(
    method: 'PUT' | 'DELETE',
    path: string,
    extra: Record<string, string>,
    body: unknown,
    w: WriteOptions | undefined,
  ): Promise<RawResponse> {
    const req: RawRequest = {
      method,
      path,
      params: this.params(extra, w),
      signal: w?.signal,
      holdMs: 0,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    };
    return withRetry(
      () => this.transport.send(req),
      isUnappliedWriteError,
      this.backoff,
      w?.signal,
      () => new NomadAbortedError(`${this.transport.describe(req)}: request aborted`),
    );
  }
}
