/**
 * The deployable stack: the workflow construct plus the Nomad address and secret ARNs it is given
 * through CDK context, and the outputs the terminal's `-engine=aws` reads.
 */
import { CfnOutput, Fn, Stack, type StackProps, Token, ValidationError } from 'aws-cdk-lib';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sns from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { APPROVAL_ROUTES } from '../approvals/endpoint';
import { fleetInputJsonSchema } from '../fleet/input';
import { restartInputJsonSchema } from '../restart/input';
import { APPROVALS_TABLE_ENV, LOCK_TABLE_ENV } from '../stores/table-env';
import {
  type ApprovalChannelsProps,
  hasApprovalChannels,
  type SlackApprovalProps,
  type WebhookApprovalProps,
} from './approval-channels';
import { NomadRestartDashboard } from './nomad-restart-dashboard';
import { NomadRestartFleet } from './nomad-restart-fleet';
import { NomadRestartWorkflow, type NomadRestartWorkflowProps } from './nomad-restart-workflow';
import { SNS_TOPIC_ARN } from './private/sns-topic-arn';
import { importVpcPlacement, type VpcPlacementIds, vpcPlacementProblem } from './private/vpc-placement';
import { RunNotifications } from './run-notifications';

export type { VpcPlacementIds } from './private/vpc-placement';

/**
 * A Secrets Manager secret as a user can name it. A complete ARN carries the 6-character suffix
 * Secrets Manager adds; with a partial ARN or a name, grants match any suffix.
 */
export type SecretReference =
  | { readonly completeArn: string }
  | { readonly partialArn: string }
  | { readonly name: string };

/** Slack approvals with their secrets given by reference. */
export type SlackApprovalReferences = Omit<SlackApprovalProps, 'botTokenSecret' | 'signingSecret'> & {
  readonly botTokenSecret: SecretReference;
  readonly signingSecret: SecretReference;
};

/** Webhook approvals with its secret given by reference. */
export type WebhookApprovalReferences = Omit<WebhookApprovalProps, 'secret'> & {
  readonly secret: SecretReference;
};

/** Props of {@link NomadRestartStack}: the workflow's, with secrets and their key given by reference. */
export interface NomadRestartStackProps
  extends StackProps,
    VpcPlacementIds,
    Omit<
      NomadRestartWorkflowProps,
      | 'nomadTokenSecret'
      | 'nomadTlsSecret'
      | 'nomadSecretsKey'
      | 'consulTokenSecret'
      | 'approvals'
      | 'alarmTopic'
    > {
  /** Slack approvals. @default - none */
  readonly slackApprovals?: SlackApprovalReferences;
  /** Webhook approvals. @default - none */
  readonly webhookApprovals?: WebhookApprovalReferences;
  /** ARN of the SNS topic questions are e-mailed through. @default - none */
  readonly approvalEmailTopicArn?: string;
  /** ARN of the customer-managed KMS key that encrypts the chat secrets. @default - the AWS managed key */
  readonly approvalSecretsKmsKeyArn?: string;
  /**
   * Concurrent executions reserved for (and capping) the public answer endpoint, when Slack or
   * webhook answers create one: `ApprovalChannelsProps.endpointReservedConcurrency`. 1 to 100, or
   * `'none'` (no reservation: what an account with a concurrency quota under 110 needs).
   * @default 10
   */
  readonly approvalEndpointReservedConcurrency?: number | 'none';
  /** Post the end of every run to the approval channels above (at least one is needed). @default false */
  readonly notifyRunEnded?: boolean;
  /** The secret holding the Nomad ACL token. @default - anonymous */
  readonly nomadTokenSecret?: SecretReference;
  /** The secret holding the Consul ACL token `waitHealthy` reads Consul with. @default - anonymous */
  readonly consulTokenSecret?: SecretReference;
  /** The secret holding TLS PEMs. @default - system roots, no client certificate */
  readonly nomadTlsSecret?: SecretReference;
  /** ARN of the customer-managed KMS key that encrypts those secrets. @default - the AWS managed key */
  readonly nomadSecretsKmsKeyArn?: string;
  /**
   * ARN of the SNS topic every alarm of the stack notifies (`NomadRestartWorkflowProps.alarmTopic`).
   * @default - the alarms exist but notify nobody
   */
  readonly alarmTopicArn?: string;
  /**
   * Draw the CloudWatch dashboard of the runs' metrics and the stack's alarms
   * ({@link NomadRestartDashboard}, docs/metrics.md). A dashboard beyond an account's first three
   * is billed monthly (https://aws.amazon.com/cloudwatch/pricing/): `false` leaves it out; the
   * metrics and the failed-runs alarm stay.
   * @default true
   */
  readonly dashboard?: boolean;
}

const lit = (s: string) => s as ConstructorParameters<typeof ValidationError>[0];

function importSecret(scope: Construct, id: string, ref: SecretReference): secretsmanager.ISecret {
  if ('completeArn' in ref) return secretsmanager.Secret.fromSecretCompleteArn(scope, id, ref.completeArn);
  if ('partialArn' in ref) return secretsmanager.Secret.fromSecretPartialArn(scope, id, ref.partialArn);
  return secretsmanager.Secret.fromSecretNameV2(scope, id, ref.name);
}

/** Deploys one {@link NomadRestartWorkflow} and exports what callers need to start a restart. */
export class NomadRestartStack extends Stack {
  public readonly workflow: NomadRestartWorkflow;
  /** Fleet restarts: many jobs in one run, each by the workflow's state machine. */
  public readonly fleet: NomadRestartFleet;
  /** The rule and function that post each run's end to the approval channels, with `notifyRunEnded`. */
  public readonly runNotifications?: RunNotifications;
  /** The topic every alarm of the stack notifies (`alarmTopicArn`); give it to your schedules' `alarmTopic`. */
  public readonly alarmTopic?: sns.ITopic;
  /** The runs' dashboard, unless `dashboard` is `false`. */
  public readonly dashboard?: NomadRestartDashboard;

  public constructor(scope: Construct, id: string, props: NomadRestartStackProps) {
    super(scope, id, props);
    const {
      nomadTokenSecret,
      nomadTlsSecret,
      nomadSecretsKmsKeyArn,
      consulTokenSecret,
      slackApprovals,
      webhookApprovals,
      approvalEmailTopicArn,
      approvalSecretsKmsKeyArn,
      approvalEndpointReservedConcurrency,
      notifyRunEnded,
      alarmTopicArn,
      dashboard,
      vpcId,
      subnetIds,
      securityGroupIds,
      ...workflowProps
    } = props;
    const alarmTopic = this.importAlarmTopic(alarmTopicArn);
    if (alarmTopic !== undefined) this.alarmTopic = alarmTopic;
    const vpcPlacement = this.vpcPlacement(props);
    const approvals: ApprovalChannelsProps = {
      ...(slackApprovals === undefined
        ? {}
        : {
            slack: {
              ...slackApprovals,
              botTokenSecret: importSecret(this, 'SlackBotToken', slackApprovals.botTokenSecret),
              signingSecret: importSecret(this, 'SlackSigningSecret', slackApprovals.signingSecret),
            },
          }),
      ...(webhookApprovals === undefined
        ? {}
        : {
            webhook: {
              ...webhookApprovals,
              secret: importSecret(this, 'WebhookSecret', webhookApprovals.secret),
            },
          }),
      ...(approvalEmailTopicArn === undefined
        ? {}
        : { emailTopic: sns.Topic.fromTopicArn(this, 'ApprovalEmailTopic', approvalEmailTopicArn) }),
      ...(approvalSecretsKmsKeyArn === undefined
        ? {}
        : { secretsKey: kms.Key.fromKeyArn(this, 'ApprovalSecretsKey', approvalSecretsKmsKeyArn) }),
      ...(approvalEndpointReservedConcurrency === undefined
        ? {}
        : { endpointReservedConcurrency: approvalEndpointReservedConcurrency }),
    };
    if (notifyRunEnded === true && !hasApprovalChannels(approvals)) {
      throw new ValidationError(
        lit('NotifyRunEndedWithoutChannel'),
        'notifyRunEnded posts to the approval channels, and none is configured: give Slack, a webhook or an e-mail topic',
        this,
      );
    }
    this.workflow = new NomadRestartWorkflow(this, 'Restart', {
      ...workflowProps,
      ...vpcPlacement,
      approvals,
      ...(alarmTopic === undefined ? {} : { alarmTopic }),
      ...(nomadTokenSecret === undefined
        ? {}
        : { nomadTokenSecret: importSecret(this, 'NomadToken', nomadTokenSecret) }),
      ...(nomadTlsSecret === undefined
        ? {}
        : { nomadTlsSecret: importSecret(this, 'NomadTls', nomadTlsSecret) }),
      ...(consulTokenSecret === undefined
        ? {}
        : { consulTokenSecret: importSecret(this, 'ConsulToken', consulTokenSecret) }),
      ...(nomadSecretsKmsKeyArn === undefined
        ? {}
        : { nomadSecretsKey: kms.Key.fromKeyArn(this, 'NomadSecretsKey', nomadSecretsKmsKeyArn) }),
    });
    this.fleet = new NomadRestartFleet(this, 'Fleet', { workflow: this.workflow });
    if (notifyRunEnded === true) {
      this.runNotifications = new RunNotifications(this, 'RunNotifications', {
        ...approvals,
        workflow: this.workflow,
        fleet: this.fleet,
        ...(workflowProps.logRetention === undefined ? {} : { logRetention: workflowProps.logRetention }),
        ...(workflowProps.removalPolicy === undefined ? {} : { removalPolicy: workflowProps.removalPolicy }),
        ...(alarmTopic === undefined ? {} : { alarmTopic }),
      });
    }
    if (dashboard !== false) {
      this.dashboard = new NomadRestartDashboard(this, 'Dashboard', {
        workflow: this.workflow,
        fleet: this.fleet,
        ...(this.runNotifications === undefined ? {} : { alarmsOf: [this.runNotifications] }),
      });
      new CfnOutput(this, 'DashboardName', {
        value: this.dashboard.dashboard.dashboardName,
        description: "The runs' dashboard (CloudWatch > Dashboards): runs, batches, questions, alarms",
      });
    }
    new CfnOutput(this, 'StateMachineArn', {
      value: this.workflow.stateMachine.stateMachineArn,
      description: 'Start a restart here: nomad-restart -engine=aws -state-machine-arn=<this>',
    });
    new CfnOutput(this, 'FleetStateMachineArn', {
      value: this.fleet.stateMachine.stateMachineArn,
      description: 'Start a fleet restart here: nomad-restart fleet -engine=aws -state-machine-arn=<this>',
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
    const endpointUrl = this.workflow.approvalChannels?.endpointUrl;
    if (endpointUrl !== undefined) {
      new CfnOutput(this, 'ApprovalEndpointUrl', {
        value: endpointUrl.url,
        description: `Answers to questions: Slack interactivity at <this>${APPROVAL_ROUTES.slack.slice(1)}, webhook answers at <this>${APPROVAL_ROUTES.webhook.slice(1)}`,
      });
      new CfnOutput(this, 'SlackInteractivityUrl', {
        value: Fn.join('', [endpointUrl.url, APPROVAL_ROUTES.slack.slice(1)]),
        description: "Paste into the Slack app's Interactivity & Shortcuts > Request URL",
      });
    }
    if (vpcId !== undefined && (securityGroupIds ?? []).length === 0) {
      new CfnOutput(this, 'NomadCallersSecurityGroupId', {
        value: this.workflow.securityGroups.map((g) => g.securityGroupId).join(','),
        description:
          "Security group of the functions that call Nomad: allow it into Nomad's (4646) and Consul's (8500) security groups",
      });
    }
    new CfnOutput(this, 'InputJsonSchema', {
      value: JSON.stringify(restartInputJsonSchema()),
      description: 'JSON Schema of the execution input (console, schedules)',
    });
    new CfnOutput(this, 'FleetInputJsonSchema', {
      value: JSON.stringify(fleetInputJsonSchema()),
      description: 'JSON Schema of a fleet execution input (console, schedules)',
    });
  }

  /** The alarm topic, imported; an ARN that is no SNS topic's stops the synth, naming the prop. */
  private importAlarmTopic(arn: string | undefined): sns.ITopic | undefined {
    if (arn === undefined) return undefined;
    if (!Token.isUnresolved(arn) && !SNS_TOPIC_ARN.test(arn)) {
      throw new ValidationError(
        lit('InvalidAlarmTopicArn'),
        `alarmTopicArn is "${arn}", not an SNS topic ARN; e.g. arn:aws:sns:eu-west-1:123456789012:nomad-restart-alarms`,
        this,
      );
    }
    return sns.Topic.fromTopicArn(this, 'AlarmTopic', arn);
  }

  /**
   * The VPC placement the ids name, imported (`vpcId`, `subnetIds`, `securityGroupIds`), or the
   * workflow's own `vpc` props, refused when given both ways or when the ids make no placement.
   */
  private vpcPlacement(props: NomadRestartStackProps): Partial<NomadRestartWorkflowProps> {
    const problem = vpcPlacementProblem(props);
    if (problem !== undefined) {
      throw new ValidationError(lit('InvalidVpcPlacement'), `${problem.key} ${problem.problem}`, this);
    }
    if (props.vpcId === undefined) return {};
    const given = (['vpc', 'vpcSubnets', 'securityGroups'] as const).find((k) => props[k] !== undefined);
    if (given !== undefined) {
      throw new ValidationError(
        lit('InvalidVpcPlacement'),
        `vpcId and ${given} are both given: name the VPC by id (vpcId, subnetIds, securityGroupIds) or as constructs (vpc, vpcSubnets, securityGroups), not both`,
        this,
      );
    }
    return importVpcPlacement(this, props);
  }
}
