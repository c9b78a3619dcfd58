import { RestartValidationError } from '../../lib/restart/errors';
import { formatStartedBefore, resolveStartedBefore, taskStartedAt } from '../../lib/restart/started-before';

/** The run's start in every case: 2026-12-07T12:00:00.000Z. */
const NOW = Date.parse('2026-12-07T12:00:00.000Z');

function refusalOf(text: string): RestartValidationError {
  try {
    resolveStartedBefore(text, NOW);
  } catch (err) {
    expect(err).toBeInstanceOf(RestartValidationError);
    return err as RestartValidationError;
  }
  throw new Error('expected an error');
}

describe('started-before', () => {
  describe('resolveStartedBefore', () => {
    it.each([
      { name: 'an RFC 3339 time in UTC', text: '2026-12-07T09:00:00Z', expected: '2026-12-07T09:00:00.000Z' },
      {
        name: 'an RFC 3339 time with an offset',
        text: '2026-12-07T10:00:00+01:00',
        expected: '2026-12-07T09:00:00.000Z',
      },
      {
        name: 'an RFC 3339 time with nanoseconds, to the millisecond',
        text: '2026-12-07T09:00:00.123456789Z',
        expected: '2026-12-07T09:00:00.123Z',
      },
      { name: 'now itself', text: '2026-12-07T12:00:00Z', expected: '2026-12-07T12:00:00.000Z' },
      { name: 'a Go duration, counted back from now', text: '2h', expected: '2026-12-07T10:00:00.000Z' },
      { name: 'a compound Go duration', text: '1h30m15s', expected: '2026-12-07T10:29:45.000Z' },
      { name: 'a zero duration: now', text: '0s', expected: '2026-12-07T12:00:00.000Z' },
      {
        name: 'a sub-millisecond duration, rounded back',
        text: '1500us',
        expected: '2026-12-07T11:59:59.998Z',
      },
    ])('reads $name', ({ text, expected }) => {
      // Act
      const time = resolveStartedBefore(text, NOW);

      // Assert
      expect(new Date(time).toISOString()).toBe(expected);
    });

    it.each([
      {
        name: 'neither a time nor a duration',
        text: 'yesterday',
        expectedErr:
          'Invalid -started-before value "yesterday": expected an RFC 3339 time with a zone, e.g. "2026-12-07T09:00:00Z", or a Go duration meaning that long before now, e.g. "2h" (string)',
      },
      {
        name: 'a time without a zone',
        text: '2026-12-07T09:00:00',
        expectedErr:
          'Invalid -started-before value "2026-12-07T09:00:00": expected an RFC 3339 time with a zone, e.g. "2026-12-07T09:00:00Z", or a Go duration meaning that long before now, e.g. "2h" (string)',
      },
      {
        name: 'a day that does not exist',
        text: '2026-02-30T09:00:00Z',
        expectedErr:
          'Invalid -started-before value "2026-02-30T09:00:00Z": expected an RFC 3339 time with a zone, e.g. "2026-12-07T09:00:00Z", or a Go duration meaning that long before now, e.g. "2h" (string)',
      },
      {
        name: 'a duration without a unit',
        text: '2',
        expectedErr:
          'Invalid -started-before value "2": expected an RFC 3339 time with a zone, e.g. "2026-12-07T09:00:00Z", or a Go duration meaning that long before now, e.g. "2h" (string)',
      },
      {
        name: 'an empty value',
        text: '',
        expectedErr:
          'Invalid -started-before value "": expected an RFC 3339 time with a zone, e.g. "2026-12-07T09:00:00Z", or a Go duration meaning that long before now, e.g. "2h" (string)',
      },
      {
        name: 'a time in the future',
        text: '2026-12-07T12:00:00.001Z',
        expectedErr:
          'Invalid -started-before value "2026-12-07T12:00:00.001Z": the time 2026-12-07T12:00:00.001Z is in the future (it is 2026-12-07T12:00:00.000Z); no allocation can have started after it yet',
      },
      {
        name: 'a negative duration (in the future)',
        text: '-1h',
        expectedErr:
          'Invalid -started-before value "-1h": the time 2026-12-07T13:00:00.000Z is in the future (it is 2026-12-07T12:00:00.000Z); no allocation can have started after it yet',
      },
    ])('refuses $name, naming the flag and the field', ({ text, expectedErr }) => {
      // Act
      const err = refusalOf(text);

      // Assert
      expect(err.message).toBe(expectedErr);
      expect(err.field).toBe('startedBefore');
    });
  });

  describe('resolveStartedBefore with countFrom', () => {
    it('counts a duration back from countFrom, and refuses only a time after now', () => {
      // Arrange: a schedule fired at 11:00; its run starts at 12:00.
      const scheduled = Date.parse('2026-12-07T11:00:00Z');

      // Act
      const relative = resolveStartedBefore('2h', NOW, scheduled);
      const afterScheduled = resolveStartedBefore('2026-12-07T11:30:00Z', NOW, scheduled);

      // Assert
      expect(new Date(relative).toISOString()).toBe('2026-12-07T09:00:00.000Z');
      expect(new Date(afterScheduled).toISOString()).toBe('2026-12-07T11:30:00.000Z');
      expect(() => resolveStartedBefore('2026-12-07T12:00:01Z', NOW, scheduled)).toThrow(
        /is in the future \(it is 2026-12-07T12:00:00\.000Z\)/,
      );
    });
  });

  describe('formatStartedBefore', () => {
    it('writes RFC 3339 with milliseconds that reads back to the same time', () => {
      // Arrange
      const time = Date.parse('2026-12-07T09:00:00.042Z');

      // Act
      const text = formatStartedBefore(time);

      // Assert
      expect(text).toBe('2026-12-07T09:00:00.042Z');
      expect(resolveStartedBefore(text, NOW)).toBe(time);
    });
  });

  describe('taskStartedAt', () => {
    it.each([
      { name: 'null (never started)', startedAt: null, expected: undefined },
      { name: 'absent', startedAt: undefined, expected: undefined },
      { name: "Go's zero time (never started)", startedAt: '0001-01-01T00:00:00Z', expected: undefined },
      { name: 'unreadable', startedAt: 'soon', expected: undefined },
      {
        name: 'a start with nanoseconds, truncated to the millisecond',
        startedAt: '2026-12-07T09:00:00.999999999Z',
        expected: Date.parse('2026-12-07T09:00:00.999Z'),
      },
      {
        name: 'a start with an offset',
        startedAt: '2026-12-07T10:00:00+01:00',
        expected: Date.parse('2026-12-07T09:00:00Z'),
      },
    ])('reads $name', ({ startedAt, expected }) => {
      // Act / Assert
      expect(taskStartedAt(startedAt)).toBe(expected);
    });
  });
});
