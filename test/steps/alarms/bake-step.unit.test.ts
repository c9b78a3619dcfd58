import type { ProgressEvent } from '../../../lib/restart/events';
import { BAKE_CHECK_SECONDS, bakeWaitSeconds, startBake } from '../../../lib/steps/alarms/bake-step';
import { EMPTY_RUN } from '../../../lib/steps/kit/step-kit';
import { restartOptions } from '../../fixtures/restart-options';

const NOW = Date.UTC(2026, 11, 7, 14, 0, 0);

describe('bakeWaitSeconds', () => {
  it.each([
    { name: 'waits at most the check interval', left: 600_000, expected: BAKE_CHECK_SECONDS },
    { name: 'never waits past the end', left: 12_500, expected: 13 },
    { name: 'waits at least a second', left: -5, expected: 1 },
  ])('$name', ({ left, expected }) => {
    // Arrange, Act, Assert
    expect(bakeWaitSeconds(NOW, NOW + left)).toBe(expected);
  });
});

describe('startBake', () => {
  const alarmed = restartOptions('api', {
    stopOnAlarms: ['arn:aws:cloudwatch:eu-west-1:123456789012:alarm:api-5xx'],
    bakeTimeMs: 120_000,
  });

  it('records the end, says which alarms it watches, and waits for the first check', () => {
    // Arrange
    const events: ProgressEvent[] = [];

    // Act
    const bake = startBake(alarmed, EMPTY_RUN, NOW, (e) => events.push(e));

    // Assert
    expect(bake?.record.bakeUntil).toBe(NOW + 120_000);
    expect(bake?.decision).toEqual({ action: 'bake', waitSeconds: BAKE_CHECK_SECONDS, question: null });
    expect(events).toEqual([{ type: 'baking', time: NOW, until: NOW + 120_000, alarms: ['api-5xx'] }]);
  });

  it.each([
    { name: 'without -bake-time', options: restartOptions('api'), record: EMPTY_RUN },
    {
      name: 'after errors',
      options: alarmed,
      record: { ...EMPTY_RUN, errors: [{ message: 'boom', unrecoverable: false }] },
    },
    {
      name: 'after an alarm stopped the run',
      options: alarmed,
      record: { ...EMPTY_RUN, stoppedOn: 'alarm' as const },
    },
  ])('does not bake $name', ({ options, record }) => {
    // Arrange
    const events: ProgressEvent[] = [];

    // Act
    const bake = startBake(options, record, NOW, (e) => events.push(e));

    // Assert
    expect(bake).toBeUndefined();
    expect(events).toEqual([]);
  });
});
