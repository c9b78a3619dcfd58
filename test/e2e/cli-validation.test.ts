// Scenario: spec §5 T2 through the real command line (a subprocess, no terminal): every bad
// flag is refused with Go's or Nomad's exact words and exit 1 before anything is touched —
// NOMAD_ADDR points at a closed port, so any request would show up as a connection error.
import { runCli } from './run-cli';

const NO_NOMAD = { NOMAD_ADDR: 'http://127.0.0.1:9' };
const HELP_LINE = "For additional help try 'nomad-restart -help'";

describe('nomad-restart command line', () => {
  describe('validation (T2)', () => {
    it.each([
      { name: 'no arguments', args: [], expectedErr: 'This command takes one argument: <job>' },
      {
        name: 'three arguments',
        args: ['one', 'two', 'three'],
        expectedErr: 'This command takes one argument: <job>',
      },
      {
        name: 'a flag after the job',
        args: ['my-job', '-yes'],
        expectedErr: 'This command takes one argument: <job>',
      },
      {
        name: '-all-tasks with -task',
        args: ['-all-tasks', '-task', 'my-task', '-yes', 'my-job'],
        expectedErr: 'The -all-tasks option cannot be used with -task',
      },
      {
        name: 'a decimal batch size',
        args: ['-batch-size', '1.5', '-yes', 'my-job'],
        expectedErr: 'Invalid -batch-size value "1.5": batch size must be an integer or a percentage',
      },
      {
        name: 'a zero percent batch size',
        args: ['-batch-size', '0%', '-yes', 'my-job'],
        expectedErr: 'Invalid -batch-size value "0%": number value must be greater than zero',
      },
      {
        name: 'ask without a terminal',
        args: ['-batch-wait', 'ask', 'my-job'],
        expectedErr: 'Invalid -batch-wait value "ask": "ask" cannot be used when terminal is not interactive',
      },
      {
        name: 'a wait without a unit',
        args: ['-batch-wait', '10', '-yes', 'my-job'],
        expectedErr: 'Invalid -batch-wait value "10": time: missing unit in duration "10"',
      },
      {
        name: 'the default -on-error without a terminal',
        args: ['my-job'],
        expectedErr: 'Invalid -on-error value "ask": "ask" cannot be used when terminal is not interactive',
      },
      {
        name: 'an unknown -on-error',
        args: ['-on-error', 'invalid', 'my-job'],
        expectedErr: 'Invalid -on-error value "invalid": valid options are "ask" and "fail"',
      },
      {
        name: '-reschedule with -task',
        args: ['-reschedule', '-task', 'my-task', '-yes', 'my-job'],
        expectedErr: 'The -reschedule option cannot be used with -task',
      },
    ])('refuses $name with Nomad’s message and the help line', async ({ args, expectedErr }) => {
      // Act
      const result = await runCli(args, NO_NOMAD);

      // Assert
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(`${expectedErr}\n${HELP_LINE}\n`);
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
