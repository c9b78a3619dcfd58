/**
 * A dead-letter queue as the template must have it: encrypted, TLS only, messages kept 14 days,
 * and an alarm on any visible message in that very queue.
 */
import type { Template } from 'aws-cdk-lib/assertions';

/** `{ 'Fn::GetAtt': [queue, 'Arn'] }` of a queue the template has (its logical id, or a matcher of it). */
export const queueArn = (queueId: unknown) => ({ 'Fn::GetAtt': [queueId, 'Arn'] });

/** The logical id the `ref` (`Fn::GetAtt` of an ARN) points at. */
export function queueIdOf(ref: unknown): string {
  const id = (ref as { 'Fn::GetAtt'?: [string, string] })['Fn::GetAtt']?.[0];
  if (id === undefined) throw new Error(`Not a GetAtt: ${JSON.stringify(ref)}`);
  return id;
}

/** Asserts that `queueId` is an encrypted, TLS-only queue that alarms as soon as a message is in it. */
export function expectWatchedDeadLetterQueue(template: Template, queueId: string): void {
  const queue = template.toJSON()['Resources'][queueId];
  expect(queue).toMatchObject({
    Type: 'AWS::SQS::Queue',
    Properties: { SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 },
  });
  const policies = Object.values(template.findResources('AWS::SQS::QueuePolicy')).filter((p) =>
    JSON.stringify(p['Properties']['Queues']).includes(`"${queueId}"`),
  );
  expect(JSON.stringify(policies)).toContain('{"Bool":{"aws:SecureTransport":"false"}}');
  const alarms = Object.values(
    template.findResources('AWS::CloudWatch::Alarm', {
      Properties: {
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } }],
      },
    }),
  );
  expect(alarms.map((a) => a['Properties'])).toEqual([
    expect.objectContaining({
      ComparisonOperator: 'GreaterThanThreshold',
      Threshold: 0,
      EvaluationPeriods: 1,
      Statistic: 'Maximum',
      TreatMissingData: 'notBreaching',
      AlarmDescription: expect.stringContaining('dead-letter queue'),
    }),
  ]);
}
