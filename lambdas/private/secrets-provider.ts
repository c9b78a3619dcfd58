/**
 * The Powertools Secrets Manager provider every handler reads its secrets through, on a client
 * made with the project's timeouts (lib/stores/aws-client-config.ts): a function in a VPC without
 * a Secrets Manager endpoint fails fast, naming it, instead of hanging until its own timeout.
 */
import type { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import { awsSdkClient } from '../../lib/stores/aws-client-config';

/**
 * A new provider. The SDK and Powertools are loaded here, on first use: a local run, which has no
 * secret to read, never loads them.
 */
export async function secretsProvider(): Promise<SecretsProvider> {
  const [{ SecretsProvider }, { SecretsManagerClient }] = await Promise.all([
    import('@aws-lambda-powertools/parameters/secrets'),
    import('@aws-sdk/client-secrets-manager'),
  ]);
  return new SecretsProvider({ awsSdkV3Client: awsSdkClient(SecretsManagerClient, {}) });
}
