// Scenario: Nomad's `TestJobRestartCommand_parseAndValidate` (T2) through the real command line (a
// subprocess, no terminal): every bad flag is refused with Go's or Nomad's exact words and exit 1
// before anything is touched — NOMAD_ADDR points at a closed port, so any request would show up as
// a connection error.
import { T2_ERROR_CASES } from '../fixtures/t2-cases';
import { runCli } from './helpers/run-cli';

const NO_NOMAD = { NOMAD_ADDR: 'http://127.0.0.1:9' };
const HELP_LINE = "For additional help try 'nomad-restart -help'";

describe('nomad-restart command line', () => {
  describe('validation (T2)', () => {
    it.each([
      ...T2_ERROR_CASES,
      {
        name: 'a flag after the job',
        args: ['my-job', '-yes'],
        expectedErr: 'This command takes one argument: <job>',
      },
      {
        name: 'a -started-before that is neither a time nor a duration',
        args: ['-yes', '-started-before', 'yesterday', 'my-job'],
        expectedErr:
          'Invalid -started-before value "yesterday": expected an RFC 3339 time with a zone, e.g. "<ts>", or a Go duration meaning that long before now, e.g. "2h" (string)',
      },
      {
        name: 'a -started-before in the future (a negative duration)',
        args: ['-yes', '-started-before', '-87600h', 'my-job'],
        expectedErr:
          'Invalid -started-before value "-87600h": the time <ms> is in the future (it is <ms>); no allocation can have started after it yet',
      },
      {
        name: 'the default -on-error without a terminal',
        args: ['my-job'],
        expectedErr: 'Invalid -on-error value "ask": "ask" cannot be used when terminal is not interactive',
      },
    ])('refuses $name with Nomad’s message and the help line', async ({ args, expectedErr }) => {
      // Act
      const result = await runCli(args, NO_NOMAD);

      // Assert: times to the millisecond (the run's clock) read as <ms>.
      expect(result.code).toBe(1);
      expect(result.stderr.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, '<ms>')).toBe(
        `${expectedErr}\n${HELP_LINE}\n`,
      );
      expect(result.stdout).toBe('');
    });

    it('reports an unknown flag like Go’s flag package: message on stderr, help on stdout', async () => {
      // Act
      const result = await runCli(['-foo', 'my-job'], NO_NOMAD);

      // Assert
      expect(result.code).toBe(1);
      expect(result.stderr).toBe('flag provided but not defined: -foo\n');
      expect(result.stdout).toContain('Usage: nomad-restart [options] <job>');
      expect(result.stderr).not.toContain(HELP_LINE);
    });
  });

  describe('a malformed address', () => {
    it('fails with Error initializing client before any request', async () => {
      // Act
      const result = await runCli(['-address', 'nope', '-yes', 'example']);

      // Assert
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^Error initializing client: /);
    });
  });
});
