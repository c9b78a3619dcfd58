/**
 * Consul client settings, read the way Consul's own CLI reads them (`api/api.go` `defaultConfig`
 * and `NewClient`, `command/flags/http.go` `MergeOntoConfig`): the `CONSUL_*` variables, then our
 * `-consul-address` and `-consul-token` flags over them. Everything is checked and the token file
 * read here, so that bad settings stop a run before anything is touched.
 */
import { readFileSync } from 'node:fs';
import { parseGoBool } from '../go/strconv';
import { fileErrorText } from '../http/error-text';
import type { RetryOptions } from '../http/retry';
import type { TlsFiles } from '../http/tls';
import { ConsulConfigError } from './errors';

/** Consul's default agent address (`api.DefaultConfig`: `127.0.0.1:8500` over http). */
export const DEFAULT_CONSUL_ADDRESS = '127.0.0.1:8500';

/** Everything needed to reach one Consul agent. Holds the token: never log it whole. */
export interface ConsulClientConfig {
  /** `http(s)://host:port`, plus any path prefix of a reverse proxy (`/consul`). */
  readonly address: string;
  /** ACL token, sent only as `X-Consul-Token`. @default - none: Consul's agent uses its own default token */
  readonly token?: string;
  /** TLS files and settings, for `https` addresses. @default - the system roots */
  readonly tls?: TlsFiles;
  /** Retries of a read on an unreachable Consul or a 5xx. @default - as the Nomad client: 4 attempts */
  readonly retry?: RetryOptions;
  /** Time to open a connection, in ms. @default 10000 */
  readonly connectMs?: number;
  /** Time for a non-blocking request, in ms (a blocking query gets its hold on top). @default 60000 */
  readonly requestMs?: number;
}

/** Our Consul flags; `undefined` or `''` means the flag was not given. */
export interface ConsulConfigFlags {
  /** `-consul-address`: wins over `CONSUL_HTTP_ADDR`. */
  readonly address?: string | undefined;
  /** `-consul-token`: wins over `CONSUL_HTTP_TOKEN` and `CONSUL_HTTP_TOKEN_FILE`. */
  readonly token?: string | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

const given = (value: string | undefined): value is string => value !== undefined && value !== '';

/** A `CONSUL_*` boolean; Consul's CLI only logs `could not parse` and goes on, we refuse it. */
function boolVariable(env: Env, name: string): boolean | undefined {
  const raw = env[name];
  if (!given(raw)) return undefined;
  const value = parseGoBool(raw);
  if (value === undefined) {
    throw new ConsulConfigError(
      `could not parse ${name}: strconv.ParseBool: parsing "${raw}": invalid syntax`,
    );
  }
  return value;
}

/** A host name, IPv4 or bracketed IPv6 address, and an optional port. */
const HOST_PORT = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)(:\d{1,5})?$/;

/**
 * `NewClient`'s address rules: `host:port` as is, `http://` or `https://` (which turns TLS on, and
 * `CONSUL_HTTP_SSL=true` is never undone by `http://`), anything after the host a path prefix.
 * `unix://` sockets are not supported here; other schemes get Consul's own text.
 */
function parseAddress(raw: string, source: string, ssl: boolean): string {
  const scheme = /^([^:/]+):\/\/(.*)$/.exec(raw);
  let https = ssl;
  let rest = raw;
  if (scheme !== null) {
    const [, name, after] = scheme as unknown as [string, string, string];
    if (name === 'unix')
      throw new ConsulConfigError(
        `unix sockets are not supported (${source} '${raw}'): use host:port or https://host:port`,
      );
    if (name !== 'http' && name !== 'https') throw new ConsulConfigError(`Unknown protocol scheme: ${name}`);
    https ||= name === 'https';
    rest = after;
  }
  const slash = rest.indexOf('/');
  const hostPort = slash < 0 ? rest : rest.slice(0, slash);
  const prefix = slash < 0 ? '' : rest.slice(slash).replace(/\/+$/, '');
  const url = HOST_PORT.test(hostPort) ? URL.parse(`${https ? 'https' : 'http'}://${hostPort}`) : null;
  if (url === null) {
    throw new ConsulConfigError(
      `invalid address '${raw}' (${source}): expected host:port, http://host:port or https://host:port`,
    );
  }
  return `${url.origin}${prefix}`;
}

/** `CONSUL_TLS_SERVER_NAME` as Consul's `SetupTLSConfig` uses it: any port is dropped. */
function serverNameOf(value: string): string {
  const bracket = value.lastIndexOf(']');
  const colon = value.lastIndexOf(':');
  if (colon <= bracket) return value;
  const host = value.slice(0, colon);
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/**
 * `CONSUL_HTTP_TOKEN_FILE` as `NewClient` reads it: trimmed, and used only if not empty. The error is
 * Consul's (v1.22: `Error loading token file <path> : <Go's error>`, the space before the colon its own).
 */
function readTokenFile(path: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConsulConfigError(`Error loading token file ${path} : ${fileErrorText(err, path)}`, {
      cause: err,
    });
  }
  const token = text.trim();
  return token === '' ? undefined : token;
}

/** A header value with a control character would be refused by Node or split the header. */
function checkToken(token: string, source: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point
  if (/[\u0000-\u001f\u007f]/.test(token))
    throw new ConsulConfigError(`invalid token (${source}): it contains a control character`);
  return token;
}

function tlsOf(env: Env, serverName: string | undefined): TlsFiles | undefined {
  const tls: TlsFiles = {};
  const files = [
    ['caCert', 'CONSUL_CACERT'],
    ['caPath', 'CONSUL_CAPATH'],
    ['clientCert', 'CONSUL_CLIENT_CERT'],
    ['clientKey', 'CONSUL_CLIENT_KEY'],
  ] as const;
  for (const [key, name] of files) {
    const value = env[name];
    if (given(value)) tls[key] = value;
  }
  if (serverName !== undefined) tls.serverName = serverName;
  // Consul's CLI reads an unparsable CONSUL_HTTP_SSL_VERIFY as "do not verify"; we refuse it instead.
  if (boolVariable(env, 'CONSUL_HTTP_SSL_VERIFY') === false) tls.insecure = true;
  return Object.keys(tls).length > 0 ? tls : undefined;
}

/**
 * The Consul settings from `env` and `flags`: `-consul-address` > `CONSUL_HTTP_ADDR` > `127.0.0.1:8500`;
 * `-consul-token` > `CONSUL_HTTP_TOKEN_FILE` (Consul reads the file over the variable) > `CONSUL_HTTP_TOKEN`;
 * `CONSUL_HTTP_SSL`, `CONSUL_CACERT`, `CONSUL_CAPATH`, `CONSUL_CLIENT_CERT`, `CONSUL_CLIENT_KEY`,
 * `CONSUL_TLS_SERVER_NAME` and `CONSUL_HTTP_SSL_VERIFY` as Consul reads them.
 * @throws ConsulConfigError on a malformed address, an unreadable token file or a bad boolean.
 */
export function consulConfigFromEnv(
  env: Env = process.env,
  flags: ConsulConfigFlags = {},
): ConsulClientConfig {
  const ssl = boolVariable(env, 'CONSUL_HTTP_SSL') === true;
  const rawAddress = given(flags.address) ? flags.address : (env['CONSUL_HTTP_ADDR'] ?? '');
  const source = given(flags.address) ? '-consul-address' : 'CONSUL_HTTP_ADDR';
  const address = parseAddress(given(rawAddress) ? rawAddress : DEFAULT_CONSUL_ADDRESS, source, ssl);
  const serverName = env['CONSUL_TLS_SERVER_NAME'];
  const tls = tlsOf(env, given(serverName) ? serverNameOf(serverName) : undefined);

  const tokenFile = env['CONSUL_HTTP_TOKEN_FILE'];
  const fromFile = given(tokenFile) ? readTokenFile(tokenFile) : undefined;
  const envToken = env['CONSUL_HTTP_TOKEN'];
  const token = given(flags.token)
    ? checkToken(flags.token, '-consul-token')
    : fromFile !== undefined
      ? checkToken(fromFile, 'CONSUL_HTTP_TOKEN_FILE')
      : given(envToken)
        ? checkToken(envToken, 'CONSUL_HTTP_TOKEN')
        : undefined;
  return {
    address,
    ...(token === undefined ? {} : { token }),
    ...(tls === undefined ? {} : { tls }),
  };
}
