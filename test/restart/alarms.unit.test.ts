import type { AlarmReader } from '../../lib/restart/alarms';
import { alarmFiredError, alarmNameOf, firedAlarm, validateAlarmFields } from '../../lib/restart/alarms';

const ARN = 'arn:aws:cloudwatch:eu-west-1:123456789012:alarm:api:p99-latency';

describe('alarmNameOf', () => {
  it('reads the name an alarm ARN ends with, colons included', () => {
    // Arrange, Act, Assert
    expect(alarmNameOf(ARN)).toBe('api:p99-latency');
  });

  it('keeps a name as it is', () => {
    // Arrange, Act, Assert
    expect(alarmNameOf('api-5xx')).toBe('api-5xx');
  });
});

describe('validateAlarmFields', () => {
  it.each([
    {
      name: 'an ARN of something else',
      raw: { stopOnAlarms: ['arn:aws:sns:eu-west-1:123456789012:topic'], waitHealthy: false },
      expectedErr:
        'Invalid -stop-on-alarm value "arn:aws:sns:eu-west-1:123456789012:topic": an ARN must be a CloudWatch alarm ARN, arn:<partition>:cloudwatch:<region>:<account>:alarm:<name>',
    },
    {
      name: 'an empty name',
      raw: { stopOnAlarms: [' '], waitHealthy: false },
      expectedErr: 'Invalid -stop-on-alarm value " ": alarm name must not be empty',
    },
    {
      name: 'a name longer than CloudWatch takes',
      raw: { stopOnAlarms: ['x'.repeat(256)], waitHealthy: false },
      expectedErr: `Invalid -stop-on-alarm value "${'x'.repeat(256)}": alarm name is longer than 255 characters`,
    },
    {
      name: '-bake-time with nothing to watch',
      raw: { bakeTime: '2m', waitHealthy: false },
      expectedErr:
        'The -bake-time option can only be used with -stop-on-alarm or -wait-healthy: there is nothing to watch',
    },
    {
      name: '-bake-time that is not a duration',
      raw: { stopOnAlarms: ['a'], bakeTime: '2', waitHealthy: false },
      expectedErr: 'Invalid -bake-time value "2": time: missing unit in duration "2"',
    },
    {
      name: '-bake-time of zero',
      raw: { stopOnAlarms: ['a'], bakeTime: '0s', waitHealthy: false },
      expectedErr: 'Invalid -bake-time value "0s": duration must be greater than zero',
    },
  ])('refuses $name', ({ raw, expectedErr }) => {
    // Arrange, Act, Assert
    expect(() => validateAlarmFields(raw)).toThrow(expectedErr);
  });

  it('reads names once each and the bake in milliseconds', () => {
    // Arrange, Act
    const out = validateAlarmFields({ stopOnAlarms: ['a', ARN, 'a'], bakeTime: '2m', waitHealthy: false });

    // Assert
    expect(out).toEqual({ stopOnAlarms: ['a', ARN], bakeTimeMs: 120_000 });
  });

  it('takes -bake-time with -wait-healthy alone', () => {
    // Arrange, Act, Assert
    expect(validateAlarmFields({ bakeTime: '30s', waitHealthy: true })).toEqual({ bakeTimeMs: 30_000 });
  });
});

describe('firedAlarm', () => {
  it('answers the first alarm in ALARM, reading ARNs by name', async () => {
    // Arrange
    const asked: string[][] = [];
    const reader: AlarmReader = {
      read: async (names) => {
        asked.push([...names]);
        return [
          { name: 'api:p99-latency', state: 'OK', reason: 'ok', since: 1 },
          { name: 'api-5xx', state: 'ALARM', reason: 'Threshold Crossed', since: 2 },
        ];
      },
    };

    // Act
    const fired = await firedAlarm(reader, [ARN, 'api-5xx']);

    // Assert
    expect(asked).toEqual([['api:p99-latency', 'api-5xx']]);
    expect(fired).toEqual({ name: 'api-5xx', reason: 'Threshold Crossed', since: 2 });
  });

  it('answers nothing while every alarm is OK or without data', async () => {
    // Arrange
    const reader: AlarmReader = {
      read: async () => [
        { name: 'a', state: 'OK', reason: '', since: 1 },
        { name: 'b', state: 'INSUFFICIENT_DATA', reason: '', since: 1 },
      ],
    };

    // Act, Assert
    await expect(firedAlarm(reader, ['a', 'b'])).resolves.toBeUndefined();
  });
});

describe('alarmFiredError', () => {
  it('names the alarm, when it fired and why', () => {
    // Arrange, Act
    const error = alarmFiredError({
      name: 'api-5xx',
      reason: 'Threshold Crossed',
      since: Date.UTC(2026, 11, 7, 14),
    });

    // Assert
    expect(error).toEqual({
      message: 'Alarm "api-5xx" is in ALARM since 2026-12-07T14:00:00.000Z: Threshold Crossed',
      unrecoverable: false,
    });
  });
});
