/**
 * The grant that lets a function decrypt secrets kept under a customer-managed KMS key: the key
 * only, and only when Secrets Manager asks on its behalf.
 */
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';

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
