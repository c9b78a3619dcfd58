/**
 * The grants that let a function read a secret: its value only, and the customer-managed KMS key
 * it is kept under, only when Secrets Manager asks on the function's behalf.
 */
import { Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';

/**
 * `kms:Decrypt` on `key` through Secrets Manager in `region` (where the function runs). Stated
 * here, not left to `grantRead`: for a secret imported by ARN that adds no KMS statement.
 */
export function grantDecryptThroughSecretsManager(
  grantee: iam.IGrantable,
  key: kms.IKey,
  region: string,
): void {
  grantee.grantPrincipal.addToPrincipalPolicy(
    new iam.PolicyStatement({
      actions: ['kms:Decrypt'],
      resources: [key.keyArn],
      conditions: {
        StringEquals: { 'kms:ViaService': `secretsmanager.${region}.amazonaws.com` },
      },
    }),
  );
}

/**
 * `secretsmanager:GetSecretValue` on `secret`, and nothing else: the functions only ever read a
 * secret's value (Powertools' SecretsProvider), while CDK's `grantRead` also grants
 * `DescribeSecret`, which no code calls (test/iam/operation-inventory.test.ts fails on a grant
 * no reachable operation needs). The resource is the ARN `grantRead` would use: the complete ARN
 * when known, else the partial one with the six-character suffix Secrets Manager appends
 * (https://docs.aws.amazon.com/secretsmanager/latest/userguide/auth-and-access_iam-policies.html).
 * A key the secret carries gets the same `kms:Decrypt` grant `grantRead` gave it.
 */
export function grantGetSecretValue(grantee: iam.IGrantable, secret: secretsmanager.ISecret): void {
  grantee.grantPrincipal.addToPrincipalPolicy(
    new iam.PolicyStatement({
      actions: ['secretsmanager:GetSecretValue'],
      resources: [secret.secretFullArn ?? `${secret.secretArn}-??????`],
    }),
  );
  if (secret.encryptionKey !== undefined)
    grantDecryptThroughSecretsManager(grantee, secret.encryptionKey, Stack.of(secret).region);
}
