/**
 * Builds the connection pool from the client's config: address, TLS files and basic auth,
 * checked with Nomad's own error texts before any request.
 */
import { type ConnectionPool, createPool } from '../../http/exchange';
import { nodeTlsOptions } from '../../http/tls';
import type { NomadClientConfig, TlsConfig } from '../config';
import { DEFAULT_NOMAD_ADDRESS } from '../config';
import { NomadClientInitError } from '../errors';

/** Default time to open a connection (see `TimeoutOptions.connectMs`). */
export const DEFAULT_CONNECT_MS = 10_000;

/** What `NomadClient.create` builds from a valid configuration. */
export interface Connection {
  /** Scheme, host and port only: Nomad ignores any path or query in the address. */
  readonly origin: string;
  readonly pool: ConnectionPool;
  /** `Basic …` header value, when basic auth is configured. */
  readonly authorization: string | undefined;
}

/** The address as it may be quoted: any `user:pass@` is masked so a password never reaches a message. */
function quotable(address: string): string {
  return address.replace(/\/\/[^/@]*@/, '//<redacted>@');
}

function parseAddress(address: string): URL {
  const shown = quotable(address);
  if (address.startsWith('unix://')) {
    throw new NomadClientInitError(
      `invalid address '${shown}': unix sockets are not supported, use http:// or https://`,
    );
  }
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new NomadClientInitError(
      `invalid address '${shown}': expected http://host:port or https://host:port`,
    );
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw new NomadClientInitError(
      `invalid address '${shown}': expected http://host:port or https://host:port`,
    );
  }
  return url;
}

function tlsOptions(tls: TlsConfig | undefined): Record<string, unknown> {
  return tls === undefined
    ? {}
    : nodeTlsOptions(tls, {
        fail: (reason, cause) => new NomadClientInitError(reason, cause === undefined ? {} : { cause }),
        unpairedText: 'Both client cert and client key must be provided',
      });
}

/** A header value with CR, LF or another control character would be refused by Node's HTTP client or split the header. */
function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function basicAuth(config: NomadClientConfig, url: URL): string | undefined {
  // Credentials in the address win over httpAuth, as in Nomad's request.toHTTP.
  if (url.username !== '') {
    const user = decodeURIComponent(url.username);
    const pass = decodeURIComponent(url.password);
    return `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
  }
  const auth = config.httpAuth;
  if (auth === undefined) return undefined;
  // The password is never quoted: it is a secret.
  if (auth.username === '' || auth.username.includes(':')) {
    throw new NomadClientInitError(
      'invalid NOMAD_HTTP_AUTH: expected "user:pass" or "user" with a non-empty user',
    );
  }
  if (hasControlCharacter(auth.username + auth.password)) {
    throw new NomadClientInitError('invalid NOMAD_HTTP_AUTH: control characters are not allowed');
  }
  return `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
}

/** Validates `config` and opens nothing yet: the agent connects lazily on the first request. */
export function buildConnection(config: NomadClientConfig): Connection {
  const url = parseAddress(config.address === '' ? DEFAULT_NOMAD_ADDRESS : config.address);
  const authorization = basicAuth(config, url);
  const connect = tlsOptions(config.tls);
  if (hasControlCharacter(config.token ?? '')) {
    throw new NomadClientInitError('invalid ACL token: it contains a control character');
  }
  const pool = createPool(url, connect, config.timeouts?.connectMs ?? DEFAULT_CONNECT_MS);
  return { origin: url.origin, pool, authorization };
}
