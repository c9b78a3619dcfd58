import { CloudWatchClient, DescribeAlarmsCommand } from '@aws-sdk/client-cloudwatch';
import { mockClient } from 'aws-sdk-client-mock';
import { ALARM_TOPIC_FIX, checkAlarmActions } from '../../../../lib/engines/aws/check/alarm-actions';

const cloudwatch = mockClient(CloudWatchClient);
afterEach(() => cloudwatch.reset());

const TOPIC = 'arn:aws:sns:eu-west-1:123456789012:alarms';
const WHAT = 'the alarms of stack "NomadRestart" notify someone';

describe('checkAlarmActions', () => {
  it('reads every page, metric and composite alarms, under the stack prefix', async () => {
    // Arrange
    cloudwatch
      .on(DescribeAlarmsCommand, { AlarmNamePrefix: 'NomadRestart-' })
      .resolvesOnce({
        MetricAlarms: [{ AlarmName: 'NomadRestart-A', AlarmActions: [TOPIC] }],
        NextToken: 'p2',
      })
      .resolvesOnce({ CompositeAlarms: [{ AlarmName: 'NomadRestart-B', AlarmActions: [TOPIC] }] });

    // Act
    const result = await checkAlarmActions(new CloudWatchClient({}), 'NomadRestart');

    // Assert
    expect(result).toEqual({ passed: true, what: `${WHAT} (2 alarms, each with an action)` });
    expect(cloudwatch.commandCalls(DescribeAlarmsCommand).map((c) => c.args[0].input.NextToken)).toEqual([
      undefined,
      'p2',
    ]);
  });

  it('fails an alarm whose actions are disabled as one without actions', async () => {
    // Arrange
    cloudwatch.on(DescribeAlarmsCommand).resolves({
      MetricAlarms: [{ AlarmName: 'NomadRestart-A', AlarmActions: [TOPIC], ActionsEnabled: false }],
    });

    // Act
    const result = await checkAlarmActions(new CloudWatchClient({}), 'NomadRestart');

    // Assert
    expect(result).toEqual({
      passed: false,
      what: WHAT,
      why: '1 of 1 alarms have no action: "NomadRestart-A"',
      fix: ALARM_TOPIC_FIX,
    });
  });

  it('fails when no alarm carries the prefix, and says to name the stack', async () => {
    // Arrange
    cloudwatch.on(DescribeAlarmsCommand).resolves({});

    // Act
    const result = await checkAlarmActions(new CloudWatchClient({}), 'NomadRestart');

    // Assert
    expect(result).toMatchObject({
      passed: false,
      why: 'no alarm is named "NomadRestart-*" in this region',
      fix: expect.stringContaining('-stack-name'),
    });
  });

  it('fails with the IAM action when DescribeAlarms is denied', async () => {
    // Arrange
    cloudwatch
      .on(DescribeAlarmsCommand)
      .rejects(Object.assign(new Error('not authorized'), { name: 'AccessDenied', $metadata: {} }));

    // Act
    const result = await checkAlarmActions(new CloudWatchClient({}), 'NomadRestart');

    // Assert
    expect(result).toEqual({
      passed: false,
      what: WHAT,
      why: 'Error listing the alarms named "NomadRestart-*": AccessDenied: not authorized; this needs the IAM action cloudwatch:DescribeAlarms',
      fix: 'allow this identity cloudwatch:DescribeAlarms (it has no resource-level permission: Resource "*")',
    });
  });
});
