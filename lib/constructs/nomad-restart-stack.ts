/**
 * The deployable stack: the workflow construct plus the Nomad address and secret ARNs it is given
 * through CDK context, and the outputs the terminal's `-engine=aws` reads.
 */
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { restartInputJsonSchema } from '../restart/input';
import { APPROVALS_TABLE_ENV, LOCK_TABLE_ENV } from '../stores/table-env';
import { NomadRestartWorkflow, type NomadRestartWorkflowProps } from './nomad-restart-workflow';

/**
 * A Secrets Manager secret as a user can name it. A complete ARN carries the 6-character suffix
 * Secrets Manager adds; with a partial ARN or a name, grants match any suffix.
 */
export type SecretReference =
  | { readonly completeArn: string }
  | { readonly partialArn: string }
  | { readonly name: string };

/** Props of {@link NomadRestartStack}: the workflow's, with secrets and their key given by reference. */
export interface NomadRestartStackProps
  extends StackProps,
    Omit<NomadRestartWorkflowProps, 'nomadTokenSecret' | 'nomadTlsSecret' | 'nomadSecretsKey'> {
  /** The secret holding the Nomad ACL token. @default - anonymous */
  readonly nomadTokenSecret?: SecretReference;
  /** The secret holding TLS PEMs. @default - system roots, no client certificate */
  readonly nomadTlsSecret?: SecretReference;
  /** ARN of the customer-managed KMS key that encrypts those secrets. @default - the AWS managed key */
  readonly nomadSecretsKmsKeyArn?: string;
}

function importSecret(scope: Construct, id: string, ref: SecretReference): secretsmanager.ISecret {
  if ('completeArn' in ref) return secretsmanager.Secret.fromSecretCompleteArn(scope, id, ref.completeArn);
  if ('partialArn' in ref) return secretsmanager.Secret.fromSecretPartialArn(scope, id, ref.partialArn);
  return secretsmanager.Secret.fromSecretNameV2(scope, id, ref.name);
}

/** Deploys one {@link NomadRestartWorkflow} and exports what callers need to start a restart. */
export class NomadRestartStack extends Stack {
  public readonly workflow: NomadRestartWorkflow;

  public constructor(scope: Construct, id: string, props: NomadRestartStackProps) {
    super(scope, id, props);
    const { nomadTokenSecret, nomadTlsSecret, nomadSecretsKmsKeyArn, ...workflowProps } = props;
    this.workflow = new NomadRestartWorkflow(this, 'Restart', {
      ...workflowProps,
      ...(nomadTokenSecret === undefined
        ? {}
        : { nomadTokenSecret: importSecret(this, 'NomadToken', nomadTokenSecret) }),
      ...(nomadTlsSecret === undefined
        ? {}
        : { nomadTlsSecret: importSecret(this, 'NomadTls', nomadTlsSecret) }),
      ...(nomadSecretsKmsKeyArn === undefined
        ? {}
        : { nomadSecretsKey: kms.Key.fromKeyArn(this, 'NomadSecretsKey', nomadSecretsKmsKeyArn) }),
    });
    new CfnOutput(this, 'StateMachineArn', {
      value: this.workflow.stateMachine.stateMachineArn,
      description: 'Start a restart here: nomad-restart -engine=aws -state-machine-arn=<this>',
    });
    // -engine=aws answers questions through the approvals table and cancels through the lock
    // table when it knows them (lib/engines/aws reads these two variables).
    new CfnOutput(this, 'ApprovalsTableName', {
      value: this.workflow.approvalsTable.tableName,
      description: `For nomad-restart -engine=aws: export ${APPROVALS_TABLE_ENV}=<this>`,
    });
    new CfnOutput(this, 'LockTableName', {
      value: this.workflow.lockTable.tableName,
      description: `For nomad-restart -engine=aws: export ${LOCK_TABLE_ENV}=<this>`,
    });
    new CfnOutput(this, 'InputJsonSchema', {
      value: JSON.stringify(restartInputJsonSchema()),
      description: 'JSON Schema of the execution input (console, schedules)',
    });
  }
}
