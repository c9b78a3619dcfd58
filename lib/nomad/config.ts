/**
 * Client configuration, resolved the way Nomad's CLI resolves it (`command/meta.go`
 * `clientConfig` over `api.DefaultConfig`): a flag that was given and is not empty wins,
 * then a non-empty `NOMAD_*` variable, then the default.
 */
import { parseGoBool } from '../go/strconv';
import type { RetryOptions } from '../http/retry';
import type { TlsFiles } from '../http/tls';
import type { RequestObserver } from './request-observer';

export type { RetryOptions } from '../http/retry';

/** Nomad's default agent address. */
export const DEFAULT_NOMAD_ADDRESS = 'http://127.0.0.1:4646';

/** TLS settings (`-ca-cert`, `-ca-path`, `-client-cert`, `-client-key`, `-tls-server-name`, `-tls-skip-verify` and their `NOMAD_*` variables). */
export type TlsConfig = TlsFiles;

/** Time limits of one HTTP attempt. */
export interface TimeoutOptions {
  /** Time to open the TCP (and TLS) connection, in ms. @default 10000 */
  connectMs?: number;
  /**
   * Time for a whole non-blocking request, in ms. A blocking query gets this plus its wait
   * and Nomad's jitter (wait/16), so a held request is never cut short. @default 60000
   */
  requestMs?: number;
}

/** Everything needed to talk to one Nomad agent. Holds secrets: never log it whole. */
export interface NomadClientConfig {
  /** `http(s)://host:port` of a Nomad agent (`-address`, `NOMAD_ADDR`). @default 'http://127.0.0.1:4646' */
  address: string;
  /** ACL token secret ID, sent only as `X-Nomad-Token` (`-token`, `NOMAD_TOKEN`). @default - anonymous */
  token?: string;
  /** `namespace` query parameter on every request (`-namespace`, `NOMAD_NAMESPACE`). @default - the server's `default` */
  namespace?: string;
  /** `region` query parameter on every request (`-region`, `NOMAD_REGION`). @default - the agent's region */
  region?: string;
  /** TLS settings. @default - verify against the system roots, no client certificate */
  tls?: TlsConfig;
  /** HTTP basic auth (`NOMAD_HTTP_AUTH`, `user:pass` or `user`). @default - none */
  httpAuth?: { username: string; password: string };
  /** Retry policy for reads. @default - see each field */
  retry?: RetryOptions;
  /** Per-attempt time limits. @default - see each field */
  timeouts?: TimeoutOptions;
  /**
   * Told `METHOD url` of each attempt before it is sent (a dry run lists the reads it made; the
   * URL holds no secret, the token travels in a header). @default - nobody
   */
  onRequest?: (request: string) => void;
  /**
   * Told of each attempt as it is sent and when it settles, without changing it (the terminal's
   * status line says when Nomad has not answered for a while). @default - nobody
   */
  observer?: RequestObserver;
}

/** Values of Nomad's general options; `undefined` or `''` means the flag was not given. */
export interface NomadConfigFlags {
  address?: string | undefined;
  token?: string | undefined;
  namespace?: string | undefined;
  region?: string | undefined;
  caCert?: string | undefined;
  caPath?: string | undefined;
  clientCert?: string | undefined;
  clientKey?: string | undefined;
  tlsServerName?: string | undefined;
  /** `-tls-skip-verify` (or its alias `-insecure`). */
  tlsSkipVerify?: boolean | undefined;
}

/** `NOMAD_HTTP_AUTH` as Nomad splits it: at the first `:`, or all username. Validated by `NomadClient.create`. */
export function parseHttpAuth(value: string): { username: string; password: string } {
  const colon = value.indexOf(':');
  return colon < 0
    ? { username: value, password: '' }
    : { username: value.slice(0, colon), password: value.slice(colon + 1) };
}

/** The first of `values` that is a non-empty string, as Nomad's `if v != ""` chains pick. */
function pick(...values: Array<string | undefined>): string | undefined {
  return values.find((v) => v !== undefined && v !== '');
}

/** The settings of `values` that were given (not `undefined`), as optional properties. */
function given<K extends string>(values: Record<K, string | undefined>): Partial<Record<K, string>> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<
    Record<K, string>
  >;
}

/**
 * Resolves the client configuration: flag values (undefined = not given) > `NOMAD_*`
 * environment > default, exactly like Nomad. As in Nomad, an empty flag or variable counts
 * as not given, an unparsable `NOMAD_SKIP_VERIFY` is ignored, and `-tls-skip-verify=false`
 * does not override `NOMAD_SKIP_VERIFY=true` (Nomad only applies the flag when it is true).
 * Nothing is validated here; `NomadClient.create` does that.
 */
export function resolveNomadConfig(
  flags: NomadConfigFlags,
  env: Readonly<Record<string, string | undefined>> = process.env,
): NomadClientConfig {
  const config: NomadClientConfig = {
    address: pick(flags.address, env['NOMAD_ADDR']) ?? DEFAULT_NOMAD_ADDRESS,
    ...given({
      token: pick(flags.token, env['NOMAD_TOKEN']),
      namespace: pick(flags.namespace, env['NOMAD_NAMESPACE']),
      region: pick(flags.region, env['NOMAD_REGION']),
    }),
  };

  const tls: TlsConfig = given({
    caCert: pick(flags.caCert, env['NOMAD_CACERT']),
    caPath: pick(flags.caPath, env['NOMAD_CAPATH']),
    clientCert: pick(flags.clientCert, env['NOMAD_CLIENT_CERT']),
    clientKey: pick(flags.clientKey, env['NOMAD_CLIENT_KEY']),
    serverName: pick(flags.tlsServerName, env['NOMAD_TLS_SERVER_NAME']),
  });
  const envInsecure = parseGoBool(env['NOMAD_SKIP_VERIFY'] ?? '');
  if (flags.tlsSkipVerify === true || envInsecure !== undefined) {
    tls.insecure = flags.tlsSkipVerify === true || envInsecure === true;
  }
  if (Object.keys(tls).length > 0) config.tls = tls;

  const auth = env['NOMAD_HTTP_AUTH'];
  if (auth !== undefined && auth !== '') config.httpAuth = parseHttpAuth(auth);
  return config;
}
