/** A tiny HTTP helper over plain `fetch`, so the tests see exactly what goes over the wire. */

export interface WireResponse<T = unknown> {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body (undefined when the body is not JSON). */
  json: T;
}

export interface CallOptions {
  method?: string;
  body?: unknown;
  token?: string;
  /** The header `token` goes in: Nomad's unless given (Consul's is `X-Consul-Token`). */
  tokenHeader?: string;
  signal?: AbortSignal;
}

/** Calls `address + path`; a non-string body is sent as JSON. */
export async function call<T = unknown>(
  address: string,
  path: string,
  options: CallOptions = {},
): Promise<WireResponse<T>> {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers[options.tokenHeader ?? 'X-Nomad-Token'] = options.token;
  const init: RequestInit = { method: options.method ?? 'GET', headers };
  if (options.body !== undefined)
    init.body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  if (options.signal) init.signal = options.signal;
  const response = await fetch(`${address}${path}`, init);
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json: json as T };
}

/** `GET` shorthand. */
export function get<T = unknown>(address: string, path: string, token?: string): Promise<WireResponse<T>> {
  return call<T>(address, path, token === undefined ? {} : { token });
}

/** `PUT` shorthand. */
export function put<T = unknown>(
  address: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<WireResponse<T>> {
  return call<T>(address, path, {
    method: 'PUT',
    ...(body === undefined ? {} : { body }),
    ...(token === undefined ? {} : { token }),
  });
}

/** Polls `fn` until it returns a value that is not undefined (API-only waits, e.g. against a real agent). */
export async function eventually<T>(
  fn: () => Promise<T | undefined>,
  timeoutMs = 10_000,
  everyMs = 20,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`eventually: gave up after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
