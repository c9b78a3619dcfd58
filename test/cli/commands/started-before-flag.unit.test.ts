import { CommandArgumentError } from '../../../lib/cli/commands/errors';
import { parseFleetArgs } from '../../../lib/cli/commands/fleet-command';
import { parseJobRestartArgs } from '../../../lib/cli/commands/job-restart-command';
import { toFleetInput, validateFleetInput } from '../../../lib/fleet/input';
import { toRestartInput, validateRestartInput } from '../../../lib/restart/input';

const notTty = { interactive: false, env: {} };

/** `-started-before` as each restarting command reads it: the one-job command and `fleet`. */
const COMMANDS = [
  {
    command: 'nomad-restart',
    startedBefore: (value: string) =>
      parseJobRestartArgs(['-yes', '-started-before', value, 'web'], notTty).options.startedBefore,
  },
  {
    command: 'nomad-restart fleet',
    startedBefore: (value: string) =>
      parseFleetArgs(['-yes', '-namespace', 'web', '-started-before', value], notTty).fleet.jobOptions
        .startedBefore,
  },
];

/** The error `act` throws (fails the test when it does not throw). */
function errorOf(act: () => unknown): Error {
  try {
    act();
  } catch (err) {
    if (err instanceof Error) return err;
    throw err;
  }
  throw new Error('expected an error');
}

describe('-started-before', () => {
  describe.each(COMMANDS)('$command', ({ startedBefore }) => {
    it('takes an RFC 3339 time as given', () => {
      // Act
      const time = startedBefore('2026-12-07T10:00:00+01:00');

      // Assert
      expect(time).toBe(Date.parse('2026-12-07T09:00:00Z'));
    });

    it('resolves a duration once, against the clock when the flags are parsed', () => {
      // Arrange
      const before = Date.now();

      // Act
      const time = startedBefore('2h');

      // Assert
      const after = Date.now();
      expect(time).toBeGreaterThanOrEqual(before - 7_200_000);
      expect(time).toBeLessThanOrEqual(after - 7_200_000);
    });

    it.each([
      {
        name: 'neither a time nor a duration',
        value: 'yesterday',
        expectedErr:
          /^Invalid -started-before value "yesterday": expected an RFC 3339 time with a zone, e\.g\. "2026-12-07T09:00:00Z", or a Go duration meaning that long before now, e\.g\. "2h" \(string\)$/,
      },
      {
        name: 'a time in the future',
        value: '2999-01-01T00:00:00Z',
        expectedErr:
          /^Invalid -started-before value "2999-01-01T00:00:00Z": the time 2999-01-01T00:00:00\.000Z is in the future \(it is \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\); no allocation can have started after it yet$/,
      },
      {
        name: 'a negative duration',
        value: '-10m',
        expectedErr: /^Invalid -started-before value "-10m": the time .* is in the future/,
      },
    ])('refuses $name, naming the flag and quoting the value', ({ value, expectedErr }) => {
      // Act
      const err = errorOf(() => startedBefore(value));

      // Assert
      expect(err).toBeInstanceOf(CommandArgumentError);
      expect(err.message).toMatch(expectedErr);
    });
  });

  it.each([
    {
      command: 'nomad-restart',
      roundTrip: (args: string[]) => {
        const { options } = parseJobRestartArgs([...args, 'web'], notTty);
        const later = validateRestartInput(toRestartInput(options), {
          interactive: false,
          now: Date.now() + 3_600_000,
        });
        return [options.startedBefore, later.startedBefore];
      },
    },
    {
      command: 'nomad-restart fleet',
      roundTrip: (args: string[]) => {
        const { fleet } = parseFleetArgs([...args, '-namespace', 'web'], notTty);
        const later = validateFleetInput(toFleetInput(fleet), {
          interactive: false,
          now: Date.now() + 3_600_000,
        });
        return [fleet.jobOptions.startedBefore, later.jobOptions.startedBefore];
      },
    },
  ])(
    '$command sends the time the flag resolved to, which an engine validating it later keeps',
    ({ roundTrip }) => {
      // Act: a relative value, read back an hour later (a run that starts, or resumes, later).
      const [parsed, later] = roundTrip(['-yes', '-started-before', '30m']);

      // Assert
      expect(parsed).toEqual(expect.any(Number));
      expect(later).toBe(parsed);
    },
  );
});
