/**
 * The deployable stack: the workflow construct plus the Nomad address and secret ARNs it is given
 * through CDK context, and the outputs the terminal's `-engine=aws` reads.
 */
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { restartInputJsonSchema } from '../restart/input';
import { APPROVALS_TABLE_ENV, LOCK_TABLE_ENV } from '../stores/table-env';
import { NomadRestartWorkflow, type NomadRestartWorkflowProps } from './nomad-restart-workflow';

/** Props of {@link NomadRestartStack}: the workflow's, with secrets given by ARN. */
export interface NomadRestartStackProps
  extends StackProps,
    Omit<NomadRestartWorkflowProps, 'nomadTokenSecret' | 'nomadTlsSecret'> {
  /** Complete ARN of the Secrets Manager secret holding the Nomad ACL token. @default - anonymous */
  readonly nomadTokenSecretArn?: string;
  /** Complete ARN of the secret holding TLS PEMs. @default - system roots, no client certificate */
  readonly nomadTlsSecretArn?: string;
}

/** Deploys one {@link NomadRestartWorkflow} and exports what callers need to start a restart. */
export class NomadRestartStack extends Stack {
  public readonly workflow: NomadRestartWorkflow;

  public constructor(scope: Construct, id: string, props: NomadRestartStackProps) {
    super(scope, id, props);
    const { nomadTokenSecretArn, nomadTlsSecretArn, ...workflowProps } = props;
    this.workflow = new NomadRestartWorkflow(this, 'Restart', {
      ...workflowProps,
      ...(nomadTokenSecretArn === undefined
        ? {}
        : {
            nomadTokenSecret: secretsmanager.Secret.fromSecretCompleteArn(
              this,
              'NomadToken',
              nomadTokenSecretArn,
            ),
          }),
      ...(nomadTlsSecretArn === undefined
        ? {}
        : {
            nomadTlsSecret: secretsmanager.Secret.fromSecretCompleteArn(this, 'NomadTls', nomadTlsSecretArn),
          }),
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
