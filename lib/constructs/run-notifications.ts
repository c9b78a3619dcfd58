/**
 * `RunNotifications`: when any run of the restart state machine ends, its summary is posted to
 * the chat channels with a link to the execution. An EventBridge rule on the state machine's
 * `Step Functions Execution Status Change` events (SUCCEEDED, FAILED, TIMED_OUT, ABORTED)
 * invokes the `notify-run-ended` handler, which may read this state machine's executions
 * (`DescribeExecution`, for details left out of an event) and the runs' records in the plan
 * bucket, read the secrets it posts with, and nothing else.
 */
import { Duration, RemovalPolicy, Stack, ValidationError, Validations } from 'aws-cdk-lib';
import type * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { ENV } from '../stores/from-env';
import { END_STATUSES } from '../workflow/ended-execution';
import type { NomadRestartFleet } from './nomad-restart-fleet';
import type { NomadRestartWorkflow } from './nomad-restart-workflow';
import { notifyAlarmsTo } from './private/alarm-actions';
import { grantPosting, type PostingChannels, postingEnvironment } from './private/chat-channel-grants';
import type { DeadLetterQueue } from './private/dead-letter-queue';
import { grantDescribeExecutions } from './private/describe-executions-grant';
import { executionEndRule } from './private/execution-end-rule';
import { TaskFunction } from './private/task-function';

/**
 * Where run ends are posted: Slack (a bot token and a channel), a signed webhook, an SNS topic.
 * The approval channels' props fit as they are (`{ ...approvals, workflow }` posts to the same
 * channels); nothing here answers, so no signing secret or allow-list is needed.
 */
export interface RunNotificationsProps extends PostingChannels {
  /**
   * The workflow whose runs are told about: its state machine, its plan bucket for the runs'
   * records, and, when given, its approvals table, where each run's live thread is: a run's end
   * then goes in its thread (also to the channel) and closes its live message.
   */
  readonly workflow: Pick<NomadRestartWorkflow, 'stateMachine' | 'planBucket'> &
    Partial<Pick<NomadRestartWorkflow, 'approvalsTable'>>;
  /** A fleet beside it whose runs are told about too, each by its summary. @default - no fleet */
  readonly fleet?: Pick<NomadRestartFleet, 'stateMachine'>;
  /** Retention of the notifier's log group. @default logs.RetentionDays.ONE_MONTH */
  readonly logRetention?: logs.RetentionDays;
  /** What happens to the notifier's log group when removed. @default RemovalPolicy.RETAIN */
  readonly removalPolicy?: RemovalPolicy;
  /**
   * Where the notifier's alarms go (its errors, its dead-letter queue): the workflow's
   * `alarmTopic`. @default - the alarms notify nobody
   */
  readonly alarmTopic?: sns.ITopic;
}

const lit = (s: string) => s as ConstructorParameters<typeof ValidationError>[0];

/** The rule and the function that post every run's end. */
export class RunNotifications extends Construct {
  /** Posts each run's end (`lambdas/notify-run-ended.ts`). */
  public readonly notifier: lambda.IFunction;
  /** Routes the state machine's ending status changes to the notifier. */
  public readonly rule: events.Rule;
  /** Run ends the rule could not deliver or the notifier kept failing on, with an alarm. */
  public readonly deadLetters: DeadLetterQueue;

  public constructor(scope: Construct, id: string, props: RunNotificationsProps) {
    super(scope, id);
    if (props.slack === undefined && props.webhook === undefined && props.emailTopic === undefined) {
      throw new ValidationError(
        lit('RunNotificationsWithoutChannel'),
        'RunNotifications names no channel: give slack, webhook or emailTopic',
        this,
      );
    }
    if (props.slack?.channelId.trim() === '') {
      throw new ValidationError(
        lit('InvalidSlackChannel'),
        'slack.channelId must name a channel, got ""',
        this,
      );
    }
    // Slack and the webhook keep a live thread per run (lib/approvals/run-thread.ts).
    const threads =
      props.slack === undefined && props.webhook === undefined ? undefined : props.workflow.approvalsTable;
    const fn = new TaskFunction(this, 'notify-run-ended-fn', {
      handlerId: 'notify-run-ended',
      timeout: Duration.seconds(30),
      environment: {
        ...postingEnvironment(props),
        [ENV.planBucket]: props.workflow.planBucket.bucketName,
        ...(threads === undefined ? {} : { [ENV.approvalsTable]: threads.tableName }),
      },
      logRetention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN,
    }).function;
    this.notifier = fn;
    grantPosting(fn, props);
    // The run's thread item: read, and its live message recorded as closed.
    if (threads !== undefined)
      fn.addToRolePolicy(
        new iam.PolicyStatement({
          actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
          resources: [threads.tableArn],
        }),
      );
    this.grantReadRuns(fn, props.workflow);
    if (props.fleet !== undefined)
      grantDescribeExecutions(
        fn,
        props.fleet.stateMachine,
        'Any execution of the fleet state machine can end; their names are not known when deploying.',
      );
    const { rule, deadLetterQueue } = executionEndRule(this, 'RunEnded', {
      description: 'Posts the end of each nomad-restart run to its chat channels',
      stateMachines: [
        props.workflow.stateMachine,
        ...(props.fleet === undefined ? [] : [props.fleet.stateMachine]),
      ],
      statuses: END_STATUSES,
      target: fn,
      undelivered: 'Run ends that were never posted to the chat channels',
    });
    this.rule = rule;
    this.deadLetters = deadLetterQueue;
    if (props.alarmTopic !== undefined) notifyAlarmsTo(this, props.alarmTopic);
  }

  /** DescribeExecution on this state machine's executions, and the runs' records (read and list). */
  private grantReadRuns(
    fn: lambda.Function,
    { stateMachine, planBucket }: RunNotificationsProps['workflow'],
  ): void {
    const stack = Stack.of(this);
    grantDescribeExecutions(
      fn,
      stateMachine,
      'Any execution of this state machine can end; their names are not known when deploying.',
    );
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['s3:GetObject'],
        resources: [planBucket.arnForObjects('runs/*')],
      }),
    );
    // With the prefix listable a missing record reads as NoSuchKey, not as a 403.
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [planBucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': ['runs/*'] } },
      }),
    );
    const bucketId = stack.getLogicalId(planBucket.node.defaultChild as s3.CfnBucket);
    Validations.of(fn.role ?? this).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/runs/*]`,
      reason: "A run's record is under runs/<run>/; the keys are not known when deploying.",
    });
  }
}
