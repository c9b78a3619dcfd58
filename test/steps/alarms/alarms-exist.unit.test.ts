import { AlarmAccessError, AlarmNotFoundError } from '../../../lib/alarms/errors';
import type { AlarmReader } from '../../../lib/restart/alarms';
import { refuseMissingAlarms } from '../../../lib/steps/alarms/alarms-exist';
import { InvalidInputError } from '../../../lib/workflow/errors';

/** A reader that records each call's names and answers as `answer` does. */
function reader(answer: (names: readonly string[]) => Promise<void>): AlarmReader & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    calls,
    read: async (names) => {
      calls.push([...names]);
      await answer(names);
      return names.map((name) => ({ name, state: 'OK', reason: '', since: 0 }));
    },
  };
}

describe('refuseMissingAlarms', () => {
  it('reads each distinct alarm name once, an ARN by its name', async () => {
    // Arrange
    const cw = reader(async () => undefined);

    // Act
    await refuseMissingAlarms(cw, [
      'api-5xx',
      'arn:aws:cloudwatch:eu-west-1:123456789012:alarm:api-5xx',
      'p99',
    ]);

    // Assert
    expect(cw.calls).toEqual([['api-5xx', 'p99']]);
  });

  it('refuses an alarm that does not exist as bad input, with the terminal check words', async () => {
    // Arrange
    const notFound = new AlarmNotFoundError(['api-typo'], 'eu-west-1');
    const cw = reader(async () => {
      throw notFound;
    });

    // Act
    const check = refuseMissingAlarms(cw, ['api-typo']);

    // Assert
    await expect(check).rejects.toThrow(InvalidInputError);
    await expect(check).rejects.toThrow(notFound.message);
  });

  it('lets any other failure of the read through as it comes', async () => {
    // Arrange
    const denied = Object.assign(new Error('not authorized'), { name: 'AccessDenied' });
    const cw = reader(async () => {
      throw denied;
    });

    // Act
    const check = refuseMissingAlarms(cw, ['api-5xx']);

    // Assert
    await expect(check).rejects.toBe(denied);
  });

  it('reads nothing without alarms, and refuses alarms without a reader', async () => {
    // Arrange
    const cw = reader(async () => undefined);

    // Act
    await refuseMissingAlarms(cw, undefined);
    await refuseMissingAlarms(cw, []);
    const unread = refuseMissingAlarms(undefined, ['api-5xx']);

    // Assert
    expect(cw.calls).toEqual([]);
    await expect(unread).rejects.toThrow(AlarmAccessError);
  });
});
