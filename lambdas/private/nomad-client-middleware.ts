/**
 * middy middleware that gives the handler a `NomadClient` on `context.nomad`.
 *
 * A local run hands the command's resolved configuration on the context (see
 * lib/steps/kit/local-invocation.ts); without one the client comes from the function's `NOMAD_*`
 * variables. On AWS the token (and optional
 * TLS PEMs) come from Secrets Manager through the Powertools `SecretsProvider`, cached for
 * `cacheMaxAgeSeconds`; the secret ARNs come from the environment. The token never enters the
 * event, the result or a log line.
 *
 * Token secret: a plain string (the ACL token), or JSON `{ "token": "..." }`.
 * TLS secret: JSON `{ "caCert"?: PEM, "clientCert"?: PEM, "clientKey"?: PEM, "serverName"?: string }`;
 * the PEMs are written to private files because the client reads TLS material from paths.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MiddlewareObj, Request } from '@middy/core';
import type { Context } from 'aws-lambda';
import { sha1Hex } from '../../lib/digest/sha1';
import { NomadClient, type NomadClientConfig, resolveNomadConfig } from '../../lib/nomad';
import { nomadConfigOf } from '../../lib/steps/kit/local-invocation';
import { ENV } from '../../lib/stores/from-env';
import { HandlerConfigError, NomadSecretError } from './errors';
import { secretsProvider } from './secrets-provider';

/** The Lambda context as handlers behind this middleware see it. */
export interface NomadContext extends Context {
  nomad: NomadClient;
}

/** The client the middleware attached; throws when the handler was wrapped without it. */
export function nomadClientOf(context: Context): NomadClient {
  const client = (context as Partial<NomadContext>).nomad;
  if (client === undefined) {
    throw new HandlerConfigError(
      'No Nomad client on the context: wrap the handler with nomadClientMiddleware()',
    );
  }
  return client;
}

/**
 * Reads one secret string by ARN; the Powertools provider in production, a fake in tests. Its
 * answer is typed as Secrets Manager's (a string or binary value, or none) rather than `unknown`:
 * the IAM inventory (test/iam/helpers/reachable-code.ts) follows a call through an interface to
 * every class that fits it, and with `unknown` the plan store's `get` fitted, making its
 * `s3:GetObject` look reachable from every handler that reads a secret.
 */
export interface SecretSource {
  get(name: string, options: { maxAge: number }): Promise<string | Uint8Array | undefined>;
}

export interface NomadClientMiddlewareOptions {
  /** Where `NOMAD_*` and the secret ARNs are read. @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** @default - a Powertools `SecretsProvider` with its own Secrets Manager client */
  readonly secrets?: SecretSource;
  /** How long a fetched secret is reused. @default 300 */
  readonly cacheMaxAgeSeconds?: number;
  /** Directory for the TLS PEM files (mode 0600). @default `<tmpdir>/nomad-restart-tls` */
  readonly pemDirectory?: string;
  /** Builds the client; tests may observe the config. @default NomadClient.create */
  readonly createClient?: (config: NomadClientConfig) => NomadClient;
}

const createClient = (config: NomadClientConfig) => NomadClient.create(config);

const defaults = {
  cacheMaxAgeSeconds: 300,
  pemDirectory: join(tmpdir(), 'nomad-restart-tls'),
  createClient,
};

type CachedClient = { fingerprint: string; client: NomadClient };

/**
 * The clients built from a configuration a local run hands on the context, shared by every
 * handler of the process: the handlers of one run then reuse one keep-alive connection pool
 * instead of each opening its own (7 connections for a 3-batch restart became 2). On Lambda no
 * configuration is handed, and each function's middleware keeps its own client, as before.
 */
const sharedClients = new WeakMap<NomadClientConfig, CachedClient>();

function checkOptions(options: NomadClientMiddlewareOptions): void {
  const age = options.cacheMaxAgeSeconds;
  if (age !== undefined && (!Number.isInteger(age) || age < 0)) {
    throw new HandlerConfigError(
      `nomadClientMiddleware: invalid cacheMaxAgeSeconds ${JSON.stringify(age)}: expected an integer >= 0`,
    );
  }
}

/** An ACL token secret's value: a plain string, or JSON `{ "token": "..." }` (Nomad's and Consul's alike). */
export function decodeToken(value: unknown, arn: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new NomadSecretError(`Secret "${arn}" is empty or not a string`);
  }
  const text = value.trim();
  if (!text.startsWith('{')) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new NomadSecretError(`Secret "${arn}" starts with "{" but is not valid JSON`, { cause: err });
  }
  const token = (parsed as { token?: unknown } | null)?.token;
  if (typeof token !== 'string' || token === '') {
    throw new NomadSecretError(`Secret "${arn}" is JSON without a non-empty string field "token"`);
  }
  return token;
}

interface TlsSecret {
  caCert?: string;
  clientCert?: string;
  clientKey?: string;
  serverName?: string;
}

function decodeTls(value: unknown, arn: string): TlsSecret {
  let parsed: unknown;
  try {
    parsed = typeof value === 'string' ? JSON.parse(value) : undefined;
  } catch (err) {
    throw new NomadSecretError(`Secret "${arn}" is not valid JSON`, { cause: err });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new NomadSecretError(`Secret "${arn}" must be a JSON object with caCert, clientCert, clientKey`);
  }
  const out: TlsSecret = {};
  for (const field of ['caCert', 'clientCert', 'clientKey', 'serverName'] as const) {
    const v = (parsed as Record<string, unknown>)[field];
    if (v === undefined) continue;
    if (typeof v !== 'string')
      throw new NomadSecretError(`Secret "${arn}" field "${field}" must be a string`);
    out[field] = v;
  }
  return out;
}

async function writePem(dir: string, name: string, pem: string): Promise<string> {
  // Imported here, on Lambda with a TLS secret only: `node:fs/promises` loads Node's readline
  // modules with it, ~2 ms of every local run, which never writes a PEM.
  const { chmod, mkdir, writeFile } = await import('node:fs/promises');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, name);
  await writeFile(path, pem, { mode: 0o600 });
  await chmod(path, 0o600);
  return path;
}

/**
 * The middleware factory: `middy(lambdaHandler).use(nomadClientMiddleware())`. The client is
 * built once and reused while the secrets it was built from stay the same.
 */
/**
 * A fingerprint of the client settings that keeps no secret in memory as plain text. SHA-1, in
 * plain TypeScript: it only tells one set of settings from another, and a local run makes it
 * before its first request, where `node:crypto` would cost about 7 ms of CPU (lib/digest/sha1.ts).
 */
const digest = sha1Hex;

export function nomadClientMiddleware(
  opts: NomadClientMiddlewareOptions = {},
): MiddlewareObj<unknown, unknown, Error, Context> {
  checkOptions(opts);
  const options = { ...defaults, ...opts };
  let secrets = opts.secrets;
  let cached: CachedClient | undefined;

  const buildConfig = async (
    env: NodeJS.ProcessEnv,
  ): Promise<{ config: NomadClientConfig; fingerprint: string }> => {
    const config = resolveNomadConfig({}, env);
    const tokenArn = env[ENV.nomadTokenSecretArn];
    const tlsArn = env[ENV.nomadTlsSecretArn];
    if ((tokenArn ?? '') === '' && (tlsArn ?? '') === '') {
      // A changed NOMAD_* variable (a local run pointed at another agent) needs a new client.
      return { config, fingerprint: digest(JSON.stringify(config)) };
    }
    // Loaded only when a secret is configured: a local run never needs the Secrets Manager client.
    secrets ??= await secretsProvider();
    const maxAge = options.cacheMaxAgeSeconds;
    let fingerprint = '';
    if (tokenArn !== undefined && tokenArn !== '') {
      const raw = await secrets.get(tokenArn, { maxAge });
      config.token = decodeToken(raw, tokenArn);
      fingerprint += String(raw);
    }
    if (tlsArn !== undefined && tlsArn !== '') {
      const raw = await secrets.get(tlsArn, { maxAge });
      const tls = decodeTls(raw, tlsArn);
      const paths: NonNullable<NomadClientConfig['tls']> = { ...config.tls };
      if (tls.caCert !== undefined) paths.caCert = await writePem(options.pemDirectory, 'ca.pem', tls.caCert);
      if (tls.clientCert !== undefined)
        paths.clientCert = await writePem(options.pemDirectory, 'client.pem', tls.clientCert);
      if (tls.clientKey !== undefined)
        paths.clientKey = await writePem(options.pemDirectory, 'client-key.pem', tls.clientKey);
      if (tls.serverName !== undefined) paths.serverName = tls.serverName;
      config.tls = paths;
      fingerprint += String(raw);
    }
    return { config, fingerprint: digest(JSON.stringify(config) + fingerprint) };
  };

  const nomadClientMiddlewareBefore = async (
    request: Request<unknown, unknown, Error, Context>,
  ): Promise<void> => {
    const given = nomadConfigOf(request.context);
    const { config, fingerprint } =
      given === undefined
        ? await buildConfig(options.env ?? process.env)
        : // A spread copy: a guarded config's redacting toJSON would hide a changed token or password.
          { config: given, fingerprint: digest(JSON.stringify({ ...given })) };
    // A client built by another `createClient` (a test observing it) is never shared.
    const shared = given !== undefined && options.createClient === createClient;
    let client = shared ? sharedClients.get(given) : cached;
    if (client === undefined || client.fingerprint !== fingerprint) {
      client = { fingerprint, client: options.createClient(config) };
      if (shared) sharedClients.set(given, client);
      else cached = client;
    }
    (request.context as NomadContext).nomad = client.client;
  };

  return { before: nomadClientMiddlewareBefore };
}
