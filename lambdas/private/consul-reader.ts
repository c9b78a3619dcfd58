/**
 * The health gate's Consul reader for one invocation (`-wait-healthy` on a job with Consul
 * services). A local run hands the command's resolved configuration on the context; on AWS it
 * comes from the function's `CONSUL_HTTP_ADDR` (and the other `CONSUL_*` variables) and the Consul
 * token from Secrets Manager (`CONSUL_TOKEN_SECRET_ARN`: a plain string or `{"token": "..."}`).
 * The client is built on the first read only, so a run that never asks Consul never resolves its
 * settings nor reads its secret; the Nomad token never reaches it.
 */
import { createHash } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { ConsulClient, type ConsulClientConfig, consulConfigFromEnv } from '../../lib/consul';
import type { ConsulChecksReader } from '../../lib/restart/health/consul-health';
import { consulConfigOf } from '../../lib/steps/kit/local-invocation';
import { ENV } from '../../lib/stores/from-env';
import { decodeToken, type SecretSource } from './nomad-client-middleware';
import { secretsProvider } from './secrets-provider';

/** How long a fetched Consul token is reused, as the Nomad token's. */
const SECRET_MAX_AGE_SECONDS = 300;

let secrets: SecretSource | undefined;
// One client per container while its settings stay the same (a fingerprint keeps no secret as text).
let cached: { fingerprint: string; client: ConsulClient } | undefined;

async function configFor(context: Context, env: NodeJS.ProcessEnv): Promise<ConsulClientConfig> {
  const given = consulConfigOf(context);
  if (given !== undefined) return given;
  const config = consulConfigFromEnv(env);
  const arn = env[ENV.consulTokenSecretArn];
  if (arn === undefined || arn === '') return config;
  secrets ??= await secretsProvider();
  const raw = await secrets.get(arn, { maxAge: SECRET_MAX_AGE_SECONDS });
  return { ...config, token: decodeToken(raw, arn) };
}

async function clientFor(context: Context, env: NodeJS.ProcessEnv): Promise<ConsulClient> {
  const config = await configFor(context, env);
  const fingerprint = createHash('sha256').update(JSON.stringify(config)).digest('hex');
  if (cached?.fingerprint !== fingerprint) cached = { fingerprint, client: ConsulClient.create(config) };
  return cached.client;
}

/** The reader for this invocation. */
export function consulReaderOf(context: Context, env: NodeJS.ProcessEnv = process.env): ConsulChecksReader {
  return {
    serviceChecks: async (service, opts) => (await clientFor(context, env)).serviceChecks(service, opts),
  };
}
