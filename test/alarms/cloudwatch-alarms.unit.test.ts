import { CloudWatchClient, DescribeAlarmsCommand } from '@aws-sdk/client-cloudwatch';
import { mockClient } from 'aws-sdk-client-mock';
import { CloudWatchAlarms } from '../../lib/alarms/cloudwatch-alarms';
import { AlarmNotFoundError } from '../../lib/alarms/errors';

const cloudwatch = mockClient(CloudWatchClient);
afterEach(() => cloudwatch.reset());

const SINCE = new Date('2026-12-07T14:00:00Z');

function reader(): CloudWatchAlarms {
  return new CloudWatchAlarms(new CloudWatchClient({ region: 'eu-west-1' }));
}

describe('CloudWatchAlarms', () => {
  describe('read', () => {
    it('asks for metric and composite alarms by name and answers them in the order asked', async () => {
      // Arrange
      cloudwatch.on(DescribeAlarmsCommand).resolves({
        MetricAlarms: [
          { AlarmName: 'b', StateValue: 'OK', StateReason: 'fine', StateUpdatedTimestamp: SINCE },
        ],
        CompositeAlarms: [
          { AlarmName: 'a', StateValue: 'ALARM', StateReason: 'p99 > 2s', StateUpdatedTimestamp: SINCE },
        ],
      });

      // Act
      const readings = await reader().read(['a', 'b']);

      // Assert
      expect(readings).toEqual([
        { name: 'a', state: 'ALARM', reason: 'p99 > 2s', since: SINCE.getTime() },
        { name: 'b', state: 'OK', reason: 'fine', since: SINCE.getTime() },
      ]);
      expect(cloudwatch.commandCalls(DescribeAlarmsCommand)[0]?.args[0].input).toEqual({
        AlarmNames: ['a', 'b'],
        AlarmTypes: ['MetricAlarm', 'CompositeAlarm'],
      });
    });

    it('asks at most 100 names per call', async () => {
      // Arrange
      const names = Array.from({ length: 250 }, (_, i) => `alarm-${i}`);
      cloudwatch.on(DescribeAlarmsCommand).callsFake((input: { AlarmNames: string[] }) => ({
        MetricAlarms: input.AlarmNames.map((name) => ({ AlarmName: name, StateValue: 'OK' })),
      }));

      // Act
      const readings = await reader().read(names);

      // Assert
      expect(readings).toHaveLength(250);
      expect(
        cloudwatch.commandCalls(DescribeAlarmsCommand).map((c) => c.args[0].input.AlarmNames?.length),
      ).toEqual([100, 100, 50]);
    });

    it('follows NextToken within one call', async () => {
      // Arrange
      cloudwatch
        .on(DescribeAlarmsCommand)
        .resolvesOnce({ MetricAlarms: [{ AlarmName: 'a', StateValue: 'OK' }], NextToken: 'p2' })
        .resolvesOnce({ MetricAlarms: [{ AlarmName: 'b', StateValue: 'OK' }] });

      // Act
      const readings = await reader().read(['a', 'b']);

      // Assert
      expect(readings.map((r) => r.name)).toEqual(['a', 'b']);
      expect(cloudwatch.commandCalls(DescribeAlarmsCommand)[1]?.args[0].input.NextToken).toBe('p2');
    });

    it('fails naming every alarm CloudWatch does not hold, and the region', async () => {
      // Arrange
      cloudwatch.on(DescribeAlarmsCommand).resolves({ MetricAlarms: [{ AlarmName: 'a', StateValue: 'OK' }] });

      // Act
      const read = reader().read(['a', 'typo-1', 'typo-2']);

      // Assert
      await expect(read).rejects.toThrow(AlarmNotFoundError);
      await expect(reader().read(['a', 'typo-1', 'typo-2'])).rejects.toThrow(
        'Alarms "typo-1", "typo-2" of -stop-on-alarm do not exist in region "eu-west-1": check the name (or ARN) and the region (AWS_REGION)',
      );
    });
  });
});
