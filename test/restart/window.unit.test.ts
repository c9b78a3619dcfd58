import { RestartValidationError } from '../../lib/restart/errors';
import { toRestartInput, validateRestartInput } from '../../lib/restart/input';
import { parseRfc3339, resolveWindow, skipsWhenLocked, windowHasEnded } from '../../lib/restart/window';
import { refusal } from './helpers/refusal';

const ctx = { interactive: true };
const at = (iso: string) => Date.parse(iso);

describe('maintenance window', () => {
  describe('parseRfc3339', () => {
    it.each([
      { text: '2026-11-29T05:00:00+01:00', expected: at('2026-11-29T04:00:00Z') },
      { text: '2026-11-29T04:00:00Z', expected: at('2026-11-29T04:00:00Z') },
      { text: '2026-11-29t04:00:00.250z', expected: at('2026-11-29T04:00:00.250Z') },
      { text: '2028-02-29T00:00:00-05:30', expected: at('2028-02-29T05:30:00Z') },
    ])('reads $text', ({ text, expected }) => {
      // Act / Assert
      expect(parseRfc3339(text)).toBe(expected);
    });

    it.each([
      '2026-11-29T05:00:00', // no zone: would move with the machine's zone
      '2026-11-29 05:00:00Z',
      '2026-02-30T00:00:00Z', // Date.parse rolls this over to March 2
      '2026-11-29T24:00:00Z',
      '05:00',
      'tomorrow',
    ])('refuses %s', (text) => {
      // Act / Assert
      expect(parseRfc3339(text)).toBeUndefined();
    });
  });

  describe('validateRestartInput', () => {
    it('reads the window and trigger fields', () => {
      // Arrange
      const raw = {
        job: 'example',
        windowEnd: '2026-11-29T05:00:00+01:00',
        windowDuration: '2h',
        trigger: 'schedule',
        scheduleName: 'weekly',
        scheduledTime: '2026-11-29T02:00:00Z',
      };

      // Act
      const options = validateRestartInput(raw, ctx);

      // Assert
      expect(options).toMatchObject({
        windowEnd: at('2026-11-29T04:00:00Z'),
        windowDurationNs: 2 * 3600 * 1e9,
        trigger: 'schedule',
        scheduleName: 'weekly',
        scheduledTime: at('2026-11-29T02:00:00Z'),
      });
    });

    it.each([
      refusal(
        'a window end without a zone',
        { windowEnd: '2026-11-29T05:00:00' },
        'Invalid input field "windowEnd": got "2026-11-29T05:00:00", expected an RFC 3339 time with a zone, e.g. "2026-11-29T05:00:00+01:00" (string)',
      ),
      refusal(
        'a window end that is not a string',
        { windowEnd: 5 },
        'Invalid input field "windowEnd": got 5, expected an RFC 3339 time with a zone, e.g. "2026-11-29T05:00:00+01:00" (string)',
      ),
      refusal(
        'a window duration that is not a Go duration',
        { windowDuration: '2 hours' },
        'Invalid input field "windowDuration": got "2 hours", expected a Go duration greater than zero, e.g. "2h" (string), counted from scheduledTime, else from the execution start (time: unknown unit " hours" in duration "2 hours")',
      ),
      refusal(
        'a window duration of zero',
        { windowDuration: '0s' },
        'Invalid input field "windowDuration": got "0s", expected a Go duration greater than zero, e.g. "2h" (string), counted from scheduledTime, else from the execution start',
      ),
      refusal(
        'an unknown trigger',
        { trigger: 'cron' },
        'Invalid input field "trigger": got "cron", expected "schedule" (set by a schedule: a run that finds the job locked is skipped, not failed)',
      ),
      refusal(
        'resumeNextWindow without a schedule to resume in',
        { resumeNextWindow: true },
        'Invalid input field "resumeNextWindow": got true, expected false without a "scheduleName" (true or false: a run stopped at its window end leaves the rest to the next run of its schedule (needs scheduleName))',
      ),
      refusal(
        'a scheduled time that is not a time',
        { scheduledTime: '<aws.scheduler.scheduled-time>' },
        'Invalid input field "scheduledTime": got "<aws.scheduler.scheduled-time>", expected an RFC 3339 time with a zone: when the schedule fired (string)',
      ),
    ])('fails: $name', ({ raw, expectedErr }) => {
      // Act
      const act = () => validateRestartInput({ job: 'example', ...raw }, ctx);

      // Assert
      expect(act).toThrow(expect.objectContaining({ name: 'RestartValidationError', message: expectedErr }));
    });

    it("checks Nomad's fields first, in Nomad's order", () => {
      // Act
      const act = () => validateRestartInput({ job: 'example', batchSize: '0', windowEnd: 'soon' }, ctx);

      // Assert
      expect(act).toThrow(
        new RestartValidationError('Invalid -batch-size value "0": number value must be greater than zero'),
      );
    });

    it('round-trips through toRestartInput', () => {
      // Arrange
      const options = validateRestartInput(
        {
          job: 'example',
          windowEnd: '2026-11-29T05:00:00+01:00',
          windowDuration: '90m',
          trigger: 'schedule',
          scheduleName: 'weekly',
          scheduledTime: '2026-11-29T02:00:00Z',
          resumeNextWindow: true,
        },
        ctx,
      );

      // Act
      const again = validateRestartInput(toRestartInput(options), ctx);

      // Assert
      expect(again).toEqual(options);
    });
  });

  describe('resolveWindow', () => {
    const base = validateRestartInput({ job: 'example', windowDuration: '2h' }, ctx);
    const started = at('2026-11-29T02:00:05Z');

    it('counts the duration from the scheduled time, not from a late start', () => {
      // Arrange
      const options = { ...base, scheduledTime: at('2026-11-29T02:00:00Z') };

      // Act
      const resolved = resolveWindow(options, at('2026-11-29T02:14:00Z'));

      // Assert
      expect(resolved.windowEnd).toBe(at('2026-11-29T04:00:00Z'));
      expect(resolved.windowDurationNs).toBeUndefined();
    });

    it('counts the duration from the start without a scheduled time', () => {
      // Act
      const resolved = resolveWindow(base, started);

      // Assert
      expect(resolved.windowEnd).toBe(at('2026-11-29T04:00:05Z'));
    });

    it('keeps the earlier of windowEnd and the duration', () => {
      // Arrange
      const early = { ...base, windowEnd: at('2026-11-29T03:00:00Z') };
      const late = { ...base, windowEnd: at('2026-11-29T09:00:00Z') };

      // Act / Assert
      expect(resolveWindow(early, started).windowEnd).toBe(at('2026-11-29T03:00:00Z'));
      expect(resolveWindow(late, started).windowEnd).toBe(at('2026-11-29T04:00:05Z'));
    });

    it('leaves options without a duration as they are', () => {
      // Arrange
      const options = validateRestartInput({ job: 'example', windowEnd: '2026-11-29T03:00:00Z' }, ctx);

      // Act / Assert
      expect(resolveWindow(options, started)).toBe(options);
    });
  });

  describe('windowHasEnded', () => {
    const options = validateRestartInput({ job: 'example', windowEnd: '2026-11-29T04:00:00Z' }, ctx);

    it('is false before the end and true from the end on', () => {
      // Act / Assert
      expect(windowHasEnded(options, at('2026-11-29T03:59:59.999Z'))).toBe(false);
      expect(windowHasEnded(options, at('2026-11-29T04:00:00Z'))).toBe(true);
    });

    it('is never true without a window', () => {
      // Act / Assert
      expect(windowHasEnded(validateRestartInput({ job: 'example' }, ctx), Number.MAX_SAFE_INTEGER)).toBe(
        false,
      );
    });
  });

  describe('skipsWhenLocked', () => {
    it('skips scheduled runs only', () => {
      // Act / Assert
      expect(skipsWhenLocked(validateRestartInput({ job: 'x', trigger: 'schedule' }, ctx))).toBe(true);
      expect(skipsWhenLocked(validateRestartInput({ job: 'x' }, ctx))).toBe(false);
    });
  });
});
