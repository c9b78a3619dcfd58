/**
 * Where AWS puts what it gave up delivering (a schedule's firing, a rule's event, a stream batch
 * the notifier kept failing on), with an alarm as soon as anything is there: without one, each of
 * those would be retried for a while and then dropped, silently.
 */
import { Duration, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { StandingAlarm } from './alarm-actions';

/** What the queue receives, in words an operator reads in the alarm. */
export interface DeadLetterQueueProps {
  /** e.g. "Scheduled restarts of job web that EventBridge Scheduler could not start". */
  readonly holds: string;
}

/**
 * An encrypted (SSE-SQS), TLS-only SQS queue keeping messages 14 days, the longest SQS allows,
 * and an alarm when one is visible in it.
 */
export class DeadLetterQueue extends Construct {
  public readonly queue: sqs.Queue;
  /**
   * In ALARM while any message waits in the queue: read it, fix the cause, redrive or delete it.
   * With an alarm topic it notifies both ways, so the all-clear reaches whoever got the alarm.
   */
  public readonly alarm: cloudwatch.Alarm;

  public constructor(scope: Construct, id: string, props: DeadLetterQueueProps) {
    super(scope, id);
    // SSE-SQS, not a KMS key: EventBridge, Scheduler and Lambda can send to it with no key grant
    // (a queue under the AWS managed aws/sqs key would refuse EventBridge's messages:
    // https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-rule-dlq.html).
    this.queue = new sqs.Queue(this, 'Queue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.queue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is itself a dead-letter queue (of a schedule, a rule or a stream mapping, which cdk-nag does not see), watched by an alarm.',
    });
    this.alarm = new StandingAlarm(this, 'NotEmpty', {
      alarmDescription: `${props.holds}: see the messages in the dead-letter queue, fix the cause, then redrive or delete them.`,
      metric: this.queue.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(5),
        statistic: cloudwatch.Stats.MAXIMUM,
      }),
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }
}
