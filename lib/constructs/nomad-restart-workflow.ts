/**
 * The `NomadRestartWorkflow` construct: the state machine, its Lambda functions, the plan bucket,
 * the lock and approvals tables and the least-privilege grants between them.
 */
import { type CfnElement, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sns from 'aws-cdk-lib/aws-sns';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { restartDefinition } from '../workflow/definition';
import { HANDLER_IDS, STALE_LOCK_HANDLER_ID } from '../workflow/state-names';
import { ApprovalChannels, type ApprovalChannelsProps, hasApprovalChannels } from './approval-channels';
import { notifyAlarmsTo } from './private/alarm-actions';
import { notifyQuestionsTo } from './private/approval-notifier';
import type { DeadLetterQueue } from './private/dead-letter-queue';
import { executionEndRule } from './private/execution-end-rule';
import { connectionOf, type FleetFunctionsProps } from './private/fleet-functions';
import { grantHandlerAccess } from './private/handler-grants';
import { validateNomadAddressProp } from './private/nomad-address';
import { grantOperator, OPERATOR_USES, type OperatorUse } from './private/operator-grants';
import { enableRunThreads } from './private/run-thread-grants';
import { stateMachineLogGroup } from './private/state-machine-log-group';
import {
  createTaskFunctions,
  type NomadConnectionProps,
  type SharedLockProps,
  type WorkflowFunctionId,
} from './private/task-functions';
import { validateVpcProps } from './private/vpc-placement';
import {
  type ExecutionAlarms,
  endpointThrottlesAlarm,
  executionAlarms,
  failedRunsAlarm,
} from './private/workflow-alarms';
import { resolveWorkflowSettings } from './private/workflow-settings';
import { createWorkflowStorage } from './private/workflow-storage';

export type { OperatorUse } from './private/operator-grants';

/** Props of {@link NomadRestartWorkflow}. */
export interface NomadRestartWorkflowProps extends SharedLockProps, NomadConnectionProps {
  /**
   * Batches one execution runs before it starts a fresh execution of itself with the cursor. An
   * execution also continues as new once its estimated history reaches 20,000 events, whatever
   * the mix of batches, await slices and questions; so at most 869 (the lightest batch writes 23
   * events), and refused at synth above that. @default 200
   */
  readonly batchesPerExecution?: number;
  /**
   * Await slices (each up to `batchSliceTimeout`) one execution runs for a batch before it
   * continues as new, so a replacement that takes days (no `-replacement-timeout`) never runs one
   * execution into the 25,000-event history limit. Between 1 and 2000. @default 1000
   */
  readonly awaitSlicesPerExecution?: number;
  /**
   * How long a question waits before Nomad's default answer ("no") applies; its item (and so its
   * chat buttons) lives as long, plus a day. From 1 minute to 365 days (a Standard execution's
   * longest life), refused at synth otherwise; at most 23 hours unless `variablesLock` is `off`
   * (nothing renews the job's lock in Nomad during a question, and its TTL is 24 hours).
   * @default Duration.hours(23)
   */
  readonly approvalTimeout?: Duration;
  /**
   * Timeout of the restart-batch and await-batch functions: one await slice (the state machine
   * loops "Await batch" until the batch settles). 1 to 15 minutes. @default Duration.minutes(5)
   */
  readonly batchSliceTimeout?: Duration;
  /** Retention of every log group. @default logs.RetentionDays.ONE_MONTH */
  readonly logRetention?: logs.RetentionDays;
  /** What happens to the bucket, tables and log groups when removed. @default RemovalPolicy.RETAIN */
  readonly removalPolicy?: RemovalPolicy;
  /**
   * Called for each new pending question (DynamoDB stream of the approvals table, keys only);
   * it is granted read access to the table and may notify chat. @default - no notifier
   */
  readonly approvalNotifier?: lambda.IFunction;
  /**
   * Chat-ops approvals: Slack, a signed webhook and/or an SNS topic are told about each question,
   * and Slack and webhook answers reach the execution through an endpoint (a Function URL).
   * @default - no channel: questions are answered at a terminal (`-engine=aws`) only
   */
  readonly approvals?: ApprovalChannelsProps;
  /** Days an ended run's plan documents are kept, counted from when each was written; a running run's never expire. @default 14 */
  readonly planExpirationDays?: number;
  /**
   * Where every alarm of the workflow goes when it fires: failed, timed-out and aborted
   * executions, each function's errors, the answer endpoint's throttles, and each dead-letter
   * queue (which also reports back when emptied). Subscribe people or a pager to it.
   * @default - the alarms exist but notify nobody: only the CloudWatch console shows them
   */
  readonly alarmTopic?: sns.ITopic;
}

/**
 * `nomad job restart` as a durable Step Functions workflow: the state machine, its Lambda
 * handlers, the plan bucket, the job-lock table and the approvals table, plus an EventBridge
 * rule that frees the lock of an execution that died outside a Catch.
 */
export class NomadRestartWorkflow extends Construct {
  /** The Standard state machine; start it with the input JSON Schema's shape. */
  public readonly stateMachine: sfn.StateMachine;
  /** Plans, batch errors and cursors (private, encrypted, TLS only, expiring). */
  public readonly planBucket: s3.Bucket;
  /** One item per job being restarted (conditional writes, TTL). */
  public readonly lockTable: dynamodb.Table;
  /** Pending questions by opaque approval id (task tokens inside: grant carefully). */
  public readonly approvalsTable: dynamodb.Table;
  /** The chat-ops notifier and answer endpoint, when `approvals` names a channel. */
  public readonly approvalChannels?: ApprovalChannels;
  /**
   * Where the ends of dead executions go when their lock could not be released (the rule could not
   * deliver them, or `release-stale-lock` kept failing), with an alarm.
   */
  public readonly staleLockDeadLetters: DeadLetterQueue;
  /** The handler functions by handler id (plus `release-stale-lock`). */
  public readonly functions: Readonly<Record<WorkflowFunctionId, lambda.IFunction>>;
  /** In ALARM for 5 minutes after an execution failed, timed out or was aborted. */
  public readonly executionAlarms: ExecutionAlarms;
  /**
   * In ALARM for 5 minutes after a run (a fleet's job too) ended `failed`, `unrecoverable`, `error`
   * or `timed-out` (docs/metrics.md). With `alarmTopic` it notifies that topic like every alarm
   * here; without: `workflow.failedRunsAlarm.addAlarmAction(new SnsAction(topic))`.
   */
  public readonly failedRunsAlarm: cloudwatch.Alarm;

  /**
   * The security groups of the functions that call Nomad, with `vpc`: `securityGroups`, or the one
   * created for them (all egress, no ingress). Nomad's (and Consul's) security group must let these
   * in. Empty without `vpc`.
   */
  public readonly securityGroups: readonly ec2.ISecurityGroup[];

  /**
   * What a fleet beside this workflow (`NomadRestartFleet`) builds its functions with: the same
   * Nomad connection and placement, log retention, removal policy and alarm topic.
   * @internal
   */
  public readonly fleetSettings: Omit<FleetFunctionsProps, 'planBucketName' | 'lockTableName'> & {
    readonly alarmTopic?: sns.ITopic;
  };

  public constructor(scope: Construct, id: string, props: NomadRestartWorkflowProps) {
    super(scope, id);
    validateNomadAddressProp(this, props.nomadAddress);
    validateVpcProps(this, props);
    const settings = resolveWorkflowSettings(this, props);
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;
    const logRetention = props.logRetention ?? logs.RetentionDays.ONE_MONTH;

    const storage = createWorkflowStorage(this, {
      planExpirationDays: settings.planExpirationDays,
      removalPolicy,
      approvalsStream: props.approvalNotifier !== undefined || hasApprovalChannels(props.approvals ?? {}),
    });
    this.planBucket = storage.planBucket;
    this.lockTable = storage.lockTable;
    this.approvalsTable = storage.approvalsTable;

    // One group for every function that calls Nomad, so Nomad's and Consul's groups need one rule.
    // An empty list is no group given (Lambda would otherwise make one per function).
    const given = props.securityGroups ?? [];
    this.securityGroups =
      props.vpc === undefined
        ? []
        : given.length > 0
          ? given
          : [
              new ec2.SecurityGroup(this, 'NomadCallers', {
                vpc: props.vpc,
                description: 'nomad-restart functions that call Nomad and Consul',
                allowAllOutbound: true,
              }),
            ];
    const fns = createTaskFunctions(this, {
      ...props,
      ...(this.securityGroups.length === 0 ? {} : { securityGroups: [...this.securityGroups] }),
      planBucketName: this.planBucket.bucketName,
      lockTableName: this.lockTable.tableName,
      approvalsTableName: this.approvalsTable.tableName,
      batchSliceTimeout: settings.batchSliceTimeout,
      logRetention,
      removalPolicy,
    });
    this.functions = fns;
    this.fleetSettings = {
      ...connectionOf(props),
      ...(this.securityGroups.length === 0 ? {} : { securityGroups: [...this.securityGroups] }),
      logRetention,
      removalPolicy,
      ...(props.alarmTopic === undefined ? {} : { alarmTopic: props.alarmTopic }),
    };

    const stateMachineName = `${Stack.of(this).stackName}-${id}`.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 80);
    const self = sfn.StateMachine.fromStateMachineName(this, 'Self', stateMachineName);
    const machineLogs = stateMachineLogGroup(this, 'StateMachineLogs', stateMachineName, {
      logRetention,
      removalPolicy,
    });
    this.stateMachine = new sfn.StateMachine(this, 'StateMachine', {
      stateMachineName,
      stateMachineType: sfn.StateMachineType.STANDARD,
      definitionBody: sfn.DefinitionBody.fromChainable(
        restartDefinition(this, {
          functions: fns,
          self,
          batchesPerExecution: settings.batchesPerExecution,
          awaitSlicesPerExecution: settings.awaitSlicesPerExecution,
          approvalTimeout: settings.approvalTimeout,
        }),
      ),
      tracingEnabled: true,
      // Execution data stays out of the logs: the ask step's input carries a task token.
      logs: { destination: machineLogs, level: sfn.LogLevel.ALL, includeExecutionData: false },
      comment: 'nomad job restart, as a durable workflow',
    });
    for (const finding of [
      'AwsSolutions-IAM5[Resource::*]',
      ...HANDLER_IDS.map((h) => `AwsSolutions-IAM5[Resource::<${this.logicalIdOf(fns[h])}.Arn>:*]`),
    ]) {
      Validations.of(this.stateMachine).acknowledge({
        id: finding,
        reason: finding.endsWith('[Resource::*]')
          ? 'CloudWatch Logs delivery (logs:CreateLogDelivery etc.) and X-Ray accept only Resource "*" for a state machine.'
          : 'Invoking a Lambda task may target any version or alias of that one function (the ":*" suffix CDK grants).',
      });
    }

    grantHandlerAccess(this, {
      functions: fns,
      planBucket: this.planBucket,
      lockTable: this.lockTable,
      approvalsTable: this.approvalsTable,
      stateMachineName,
    });
    this.staleLockDeadLetters = executionEndRule(this, 'ReleaseStaleLock', {
      description: 'Releases the job lock of a nomad-restart execution that failed, timed out or was aborted',
      stateMachines: [this.stateMachine],
      statuses: ['FAILED', 'TIMED_OUT', 'ABORTED'],
      target: fns[STALE_LOCK_HANDLER_ID],
      undelivered:
        'Ends of failed, timed-out or aborted runs whose job lock was not released (it expires with its TTL)',
    }).deadLetterQueue;
    if (props.approvalNotifier !== undefined) notifyQuestionsTo(props.approvalNotifier, this.approvalsTable);
    if (props.approvals !== undefined && hasApprovalChannels(props.approvals)) {
      this.approvalChannels = new ApprovalChannels(this, 'Approvals', {
        ...props.approvals,
        approvalsTable: this.approvalsTable,
        lockTable: this.lockTable,
        stateMachine: this.stateMachine,
        logRetention,
        removalPolicy,
        timeout: Duration.seconds(30),
      });
      // Slack and the webhook keep a live thread per run; an e-mail topic does not.
      if (props.approvals.slack !== undefined || props.approvals.webhook !== undefined)
        enableRunThreads(fns, this.approvalsTable);
    }
    this.executionAlarms = executionAlarms(this, this.stateMachine);
    this.failedRunsAlarm = failedRunsAlarm(this);
    const endpoint = this.approvalChannels?.endpoint;
    if (endpoint !== undefined) endpointThrottlesAlarm(this, endpoint);
    if (props.alarmTopic !== undefined) notifyAlarmsTo(this, props.alarmTopic);
  }

  /**
   * Lets `grantee` (an operator's role or user) run `nomad-restart -engine=aws`, `attach`,
   * `questions`, `approve`, `deny`, `check` and `pause|resume|stop <execution ARN>`: exactly the
   * actions of the given uses (docs/operating-on-aws.md), all six by default. `start`: `states:StartExecution`,
   * `states:GetExecutionHistory`; `answer`: `states:SendTaskSuccess`, the approvals table's
   * `dynamodb:GetItem` and `dynamodb:UpdateItem`, `dynamodb:Query` on its execution and pending
   * indexes and `dynamodb:Scan` on the pending one; `interrupt`: `states:StopExecution`,
   * `states:GetExecutionHistory`, the lock table's `dynamodb:UpdateItem`; `attach`:
   * `states:GetExecutionHistory`; `check`: `states:StartExecution` and `states:SendTaskSuccess`,
   * `states:GetExecutionHistory` and `states:StopExecution` on its executions,
   * `cloudwatch:DescribeAlarms` on `*`; `control`: `states:GetExecutionHistory` and
   * `states:DescribeExecution` on its executions, `states:SendTaskSuccess`, the approvals table's
   * `dynamodb:GetItem` and `dynamodb:UpdateItem` and `dynamodb:Query` on its pending index, the lock
   * table's `dynamodb:GetItem` and `dynamodb:UpdateItem` and `dynamodb:Query` on its owner index.
   */
  public grantOperate(grantee: iam.IGrantable, ...uses: OperatorUse[]): iam.Grant {
    return grantOperator(this, grantee, uses.length > 0 ? uses : OPERATOR_USES);
  }

  /** Lets `grantee` list and answer pending questions: `grantOperate(grantee, 'answer')`. */
  public grantAnswerQuestions(grantee: iam.IGrantable): iam.Grant {
    return this.grantOperate(grantee, 'answer');
  }

  private logicalIdOf(fn: lambda.IFunction): string {
    return Stack.of(this).getLogicalId(fn.node.defaultChild as CfnElement);
  }
}
