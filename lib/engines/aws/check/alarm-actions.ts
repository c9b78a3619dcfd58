/**
 * Whether every alarm the stack made reaches someone: an alarm with no action (or its actions
 * disabled) changes state in the console and tells nobody, so a failed 02:00 maintenance restart
 * waits for whoever opens it. CloudFormation names an alarm it names itself
 * `<stack name>-<logical id>-<suffix>`, so the stack's alarms are the ones under that prefix.
 */
import {
  type CloudWatchClient,
  type CompositeAlarm,
  DescribeAlarmsCommand,
  type MetricAlarm,
} from '@aws-sdk/client-cloudwatch';
import { goQuote } from '../../../go/quote';
import { awsCall } from '../aws-call';
import { AwsCallError } from '../errors';
import { type CheckResult, failed, passed } from './check-result';

/** The fix for alarms that notify nobody. */
export const ALARM_TOPIC_FIX =
  'deploy with -c alarmTopicArn=<ARN of an SNS topic someone is subscribed to>: every alarm the stack creates then notifies it (docs/deploying.md)';

type Alarm = MetricAlarm | CompositeAlarm;

async function alarmsNamed(cloudwatch: CloudWatchClient, prefix: string): Promise<Alarm[]> {
  const alarms: Alarm[] = [];
  let nextToken: string | undefined;
  do {
    const token = nextToken;
    const page = await awsCall(
      { action: 'cloudwatch:DescribeAlarms', what: `listing the alarms named ${goQuote(`${prefix}*`)}` },
      () =>
        cloudwatch.send(
          new DescribeAlarmsCommand({
            AlarmNamePrefix: prefix,
            AlarmTypes: ['MetricAlarm', 'CompositeAlarm'],
            ...(token === undefined ? {} : { NextToken: token }),
          }),
        ),
    );
    alarms.push(...(page.MetricAlarms ?? []), ...(page.CompositeAlarms ?? []));
    nextToken = page.NextToken;
  } while (nextToken !== undefined);
  return alarms;
}

const notifies = (alarm: Alarm) => alarm.ActionsEnabled !== false && (alarm.AlarmActions ?? []).length > 0;

/**
 * Checks that every alarm whose name starts with `<stackName>-` has an alarm action, enabled.
 * @param stackName the stack that created the alarms
 */
export async function checkAlarmActions(
  cloudwatch: CloudWatchClient,
  stackName: string,
): Promise<CheckResult> {
  const prefix = `${stackName}-`;
  const what = `the alarms of stack ${goQuote(stackName)} notify someone`;
  let alarms: Alarm[];
  try {
    alarms = await alarmsNamed(cloudwatch, prefix);
  } catch (error) {
    if (!(error instanceof AwsCallError)) throw error;
    const fix = error.accessDenied
      ? 'allow this identity cloudwatch:DescribeAlarms (it has no resource-level permission: Resource "*")'
      : 'run the check again once CloudWatch answers';
    return failed(what, error.message, fix);
  }
  if (alarms.length === 0) {
    return failed(
      what,
      `no alarm is named ${goQuote(`${prefix}*`)} in this region`,
      'pass -stack-name <the name the stack was deployed under> (the stack output StateMachineArn is in its region)',
    );
  }
  const silent = alarms.filter((alarm) => !notifies(alarm)).map((alarm) => alarm.AlarmName ?? '');
  if (silent.length > 0) {
    return failed(
      what,
      `${silent.length} of ${alarms.length} alarms have no action: ${silent.map(goQuote).join(', ')}`,
      ALARM_TOPIC_FIX,
    );
  }
  return passed(`${what} (${alarms.length} alarms, each with an action)`);
}
