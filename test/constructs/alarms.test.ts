/**
 * The stack's alarms in the template: failed, timed-out and aborted executions, each function's
 * errors, the answer endpoint's throttles and every dead-letter queue; with `alarmTopicArn` each
 * of them notifies that topic (the dead-letter ones when emptied too), without it none notifies
 * anybody; an ARN that is no SNS topic's stops the synth naming the key; cdk-nag stays clean.
 */
import { App, type CfnElement } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { NomadRestartSchedule } from '../../lib/constructs/nomad-restart-schedule';
import { NomadRestartStack } from '../../lib/constructs/nomad-restart-stack';
import { StackContextError, stackPropsFromContext } from '../../lib/constructs/stack-context';
import { awsSolutionsFindings } from './helpers/nag';
import { synthWithApprovalChannels } from './helpers/synth';

const ALARM_TOPIC = 'arn:aws:sns:us-east-1:123456789012:nomad-restart-alarms';
const EMAIL_TOPIC = 'arn:aws:sns:us-east-1:123456789012:nomad-restart-questions';

type AlarmProps = {
  AlarmActions?: unknown[];
  OKActions?: unknown[];
  MetricName: string;
  Namespace: string;
  Dimensions?: { Name: string; Value: unknown }[];
  Threshold: number;
};

/** Every alarm of the template, by logical id. */
function alarmsOf(template: Template): Record<string, AlarmProps> {
  return Object.fromEntries(
    Object.entries(template.findResources('AWS::CloudWatch::Alarm')).map(([id, r]) => [
      id,
      (r as { Properties: AlarmProps }).Properties,
    ]),
  );
}

/** Every feature that makes alarms: Slack and webhook answers (the endpoint), e-mail, run notifications. */
function synthEverything(over: Record<string, unknown> = {}) {
  return synthWithApprovalChannels('AlarmsTest', EMAIL_TOPIC, { notifyRunEnded: true, ...over });
}

const { app, template } = synthEverything({ alarmTopicArn: ALARM_TOPIC });
const alarms = alarmsOf(template);

describe('alarms with alarmTopicArn', () => {
  it('sends every alarm of the stack to the topic', () => {
    // Act
    const actions = Object.entries(alarms).map(([id, a]) => [id, a.AlarmActions]);

    // Assert
    expect(actions.length).toBeGreaterThan(20);
    expect(actions).toEqual(Object.keys(alarms).map((id) => [id, [ALARM_TOPIC]]));
  });

  it('reports the all-clear of the dead-letter queues only, whose ALARM lasts until someone acts', () => {
    // Act
    const withOk = Object.values(alarms)
      .filter((a) => a.OKActions !== undefined)
      .map((a) => [a.MetricName, a.OKActions]);

    // Assert: the queues of the stale-lock release, the fleet record's end, the notifier's stream
    // and the run ends.
    expect(withOk).toHaveLength(4);
    expect(withOk).toEqual(withOk.map(() => ['ApproximateNumberOfMessagesVisible', [ALARM_TOPIC]]));
    expect(
      Object.values(alarms).filter((a) => a.MetricName === 'ApproximateNumberOfMessagesVisible'),
    ).toHaveLength(withOk.length);
  });

  it.each([
    ['one-job', 'RestartStateMachine'],
    ['fleet', 'FleetStateMachine'],
  ])('alarms on any failed, timed-out or aborted execution of the %s state machine', (_, machine) => {
    // Act
    const machineAlarms = Object.values(alarms).filter(
      (a) => a.Namespace === 'AWS/States' && JSON.stringify(a.Dimensions).includes(`"Ref":"${machine}`),
    );

    // Assert
    expect(machineAlarms.map((a) => a.MetricName).sort()).toEqual([
      'ExecutionsAborted',
      'ExecutionsFailed',
      'ExecutionsTimedOut',
    ]);
    for (const a of machineAlarms) {
      expect(a).toMatchObject({
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
        Dimensions: [
          { Name: 'StateMachineArn', Value: { Ref: expect.stringMatching(new RegExp(`^${machine}`)) } },
        ],
      });
    }
  });

  it("alarms on every function's errors: the first for those outside the graph, three for the steps", () => {
    // Arrange
    const functions = Object.entries(template.findResources('AWS::Lambda::Function'));

    // Act
    const errorAlarms = Object.values(alarms).filter((a) => a.MetricName === 'Errors');
    const thresholdOf = (fnId: string) =>
      errorAlarms.find((a) => JSON.stringify(a.Dimensions).includes(`"${fnId}"`))?.Threshold;

    // Assert
    expect(errorAlarms).toHaveLength(functions.length);
    const thresholds = Object.fromEntries(
      functions.map(([id]) => [id.replace(/Function[0-9A-F]{8}$/, ''), thresholdOf(id)]),
    );
    expect(thresholds).toMatchObject({
      Restartlockjobfn: 3,
      Restartaskfn: 3,
      Restartreleasestalelockfn: 1,
      RestartApprovalsapprovalendpointfn: 1,
      RestartApprovalsapprovalnotifierfn: 1,
      RunNotificationsnotifyrunendedfn: 1,
    });
  });

  it("alarms on the answer endpoint's throttles", () => {
    // Act
    const throttles = Object.values(alarms).filter((a) => a.MetricName === 'Throttles');

    // Assert
    expect(throttles).toHaveLength(1);
    expect(JSON.stringify(throttles[0]?.Dimensions)).toMatch(/RestartApprovalsapprovalendpointfn/);
  });

  it('reports no unacknowledged cdk-nag finding', () => {
    // Act
    const report = awsSolutionsFindings(app);

    // Assert
    expect(report.findings).toEqual([]);
    expect(report.success).toBe(true);
  });
});

describe("the stack's alarmTopic", () => {
  it('reaches a schedule added to the stack', () => {
    // Arrange
    const scheduled = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new NomadRestartStack(scheduled, 'Scheduled', {
      env: { account: '123456789012', region: 'us-east-1' },
      nomadAddress: 'https://nomad.internal:4646',
      alarmTopicArn: ALARM_TOPIC,
    });

    // Act
    const schedule = new NomadRestartSchedule(stack, 'Nightly', {
      stateMachine: stack.workflow.stateMachine,
      scheduleName: 'nightly-web',
      schedule: 'cron(0 2 * * ? *)',
      input: { job: 'web', yes: true },
      ...(stack.alarmTopic === undefined ? {} : { alarmTopic: stack.alarmTopic }),
    });

    // Assert
    const queueAlarm =
      Template.fromStack(stack).toJSON()['Resources'][
        stack.getLogicalId(schedule.deadLetters.alarm.node.defaultChild as CfnElement)
      ];
    expect(queueAlarm['Properties']).toMatchObject({ AlarmActions: [ALARM_TOPIC], OKActions: [ALARM_TOPIC] });
  });
});

describe('alarms without alarmTopicArn', () => {
  it('creates the same alarms, notifying nobody', () => {
    // Act
    const without = alarmsOf(synthEverything().template);

    // Assert
    expect(Object.keys(without).sort()).toEqual(Object.keys(alarms).sort());
    expect(
      Object.values(without).filter((a) => a.AlarmActions !== undefined || a.OKActions !== undefined),
    ).toEqual([]);
  });
});

describe('a bad alarmTopicArn', () => {
  const context = (value: string) => (key: string) =>
    ({ nomadAddress: 'https://nomad.internal:4646', alarmTopicArn: value })[key];

  it('reads -c alarmTopicArn', () => {
    // Act
    const props = stackPropsFromContext(context(ALARM_TOPIC));

    // Assert
    expect(props.alarmTopicArn).toBe(ALARM_TOPIC);
  });

  it.each([
    ['a queue', 'arn:aws:sqs:us-east-1:123456789012:alarms'],
    ['a bare name', 'nomad-restart-alarms'],
    ['a short account', 'arn:aws:sns:us-east-1:1234:alarms'],
  ])('stops the synth on %s, naming the key and the value', (_what, value) => {
    // Act
    const act = () => stackPropsFromContext(context(value));

    // Assert
    expect(act).toThrow(StackContextError);
    expect(act).toThrow(`Context "alarmTopicArn" is "${value}", not an SNS topic ARN`);
  });

  it('stops the stack given the prop directly, naming it', () => {
    // Arrange
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });

    // Act
    const act = () =>
      new NomadRestartStack(app, 'BadTopic', {
        nomadAddress: 'https://nomad.internal:4646',
        alarmTopicArn: 'arn:aws:sqs:us-east-1:123456789012:alarms',
      });

    // Assert
    expect(act).toThrow('alarmTopicArn is "arn:aws:sqs:us-east-1:123456789012:alarms", not an SNS topic ARN');
  });
});

describe('the alarm descriptions', () => {
  it('say what happened and where to look', () => {
    // Act / Assert
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ExecutionsFailed',
      AlarmDescription: Match.stringLikeRegexp('^A nomad-restart run failed\\. .*attach'),
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'Errors',
      AlarmDescription: Match.stringLikeRegexp('^nomad-restart lock-job: 3 or more errors in 5 minutes'),
    });
  });
});
