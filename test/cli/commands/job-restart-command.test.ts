import { CommandArgumentError, GoFlagError, HelpRequestedError } from '../../../lib/cli/commands/errors';
import { jobRestartHelp, parseJobRestartArgs } from '../../../lib/cli/commands/job-restart-command';
import type { RestartOptions } from '../../../lib/restart/options';
import { restartOptions } from '../../fixtures/restart-options';
import { T2_ERROR_CASES, T2_GROUPS_AND_TASKS_ARGS } from '../../fixtures/t2-cases';

const notTty = { interactive: false, env: {} };

/** The message of what `act` throws (fails the test when it does not throw). */
function messageOf(act: () => unknown): string {
  try {
    act();
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  throw new Error('expected an error');
}

/** Nomad's parseAndValidate test harness: successful cases without -on-error get -yes prepended. */
function harnessArgs(args: string[], prependYes: boolean): string[] {
  return prependYes ? ['-yes', ...args] : args;
}

describe('parseJobRestartArgs', () => {
  describe('TestJobRestartCommand_parseAndValidate error cases (no TTY)', () => {
    it.each(T2_ERROR_CASES)('fails: $name', ({ args, expectedErr }) => {
      // Arrange / Act
      const act = () => parseJobRestartArgs(args, notTty);

      // Assert
      expect(act).toThrow(CommandArgumentError);
      expect(messageOf(act)).toBe(expectedErr);
    });
  });

  describe('TestJobRestartCommand_parseAndValidate success cases (no TTY)', () => {
    it.each<{ name: string; args: string[]; yes: boolean; expected: Partial<RestartOptions> }>([
      {
        name: '3 groups and tasks',
        args: [...T2_GROUPS_AND_TASKS_ARGS, 'my-job'],
        yes: true,
        expected: { groups: ['my-group-1', 'my-group-2'], tasks: ['my-task-1', 'my-task-2'] },
      },
      { name: '4 all tasks', args: ['-all-tasks', 'my-job'], yes: true, expected: { allTasks: true } },
      {
        name: '6 batch size',
        args: ['-batch-size', '10', 'my-job'],
        yes: true,
        expected: { batchSize: { value: 10, percent: false } },
      },
      {
        name: '7 batch size percent',
        args: ['-batch-size', '10%', 'my-job'],
        yes: true,
        expected: { batchSize: { value: 10, percent: true } },
      },
      {
        name: '15 batch wait',
        args: ['-batch-wait', '10s', 'my-job'],
        yes: true,
        expected: { batchWait: { kind: 'duration', ns: 10e9 } },
      },
      {
        name: '17 on error fail',
        args: ['-on-error', 'fail', 'my-job'],
        yes: false,
        expected: { onError: 'fail', yes: false },
      },
      {
        name: '19 no shutdown delay',
        args: ['-no-shutdown-delay', 'my-job'],
        yes: true,
        expected: { noShutdownDelay: true },
      },
      { name: '20 reschedule', args: ['-reschedule', 'my-job'], yes: true, expected: { reschedule: true } },
      { name: '22 verbose', args: ['-verbose', 'my-job'], yes: true, expected: { verbose: true } },
    ])('parses: $name', ({ args, yes, expected }) => {
      // Arrange
      const argv = harnessArgs(args, yes);

      // Act
      const { options } = parseJobRestartArgs(argv, notTty);

      // Assert
      expect(options).toEqual(restartOptions('my-job', expected));
    });
  });

  describe('validation order and values (parseAndValidate)', () => {
    it.each([
      {
        name: 'argument count before any value check',
        args: ['-batch-size', 'x', 'a', 'b'],
        expectedErr: 'This command takes one argument: <job>',
      },
      {
        name: 'flags after the job leave two arguments',
        args: ['my-job', '-yes'],
        expectedErr: 'This command takes one argument: <job>',
      },
      {
        name: 'batch size before batch wait',
        args: ['-batch-size', '0', '-batch-wait', 'x', 'j'],
        expectedErr: 'Invalid -batch-size value "0": number value must be greater than zero',
      },
      {
        name: 'batch size overflow',
        args: ['-yes', '-batch-size', '99999999999999999999%', 'j'],
        expectedErr:
          'Invalid -batch-size value "99999999999999999999%": strconv.Atoi: parsing "99999999999999999999": value out of range',
      },
      ...['-1', '+1', ' 5', '5 %', '', '\u0665'].map((value) => ({
        name: `batch size ${JSON.stringify(value)}`,
        args: ['-yes', '-batch-size', value, 'j'],
        expectedErr: `Invalid -batch-size value ${JSON.stringify(value)}: batch size must be an integer or a percentage`,
      })),
      {
        name: 'ASK in capitals prints the literal ask',
        args: ['-batch-wait', 'ASK', 'j'],
        expectedErr: 'Invalid -batch-wait value "ask": "ask" cannot be used when terminal is not interactive',
      },
      {
        name: 'on-error ask is the default and needs a TTY',
        args: ['j'],
        expectedErr: 'Invalid -on-error value "ask": "ask" cannot be used when terminal is not interactive',
      },
      {
        name: 'on-error is case-sensitive',
        args: ['-yes', '-on-error', 'FAIL', 'j'],
        expectedErr: 'Invalid -on-error value "FAIL": valid options are "ask" and "fail"',
      },
      {
        name: 'bad unit',
        args: ['-yes', '-batch-wait', '1d', 'j'],
        expectedErr: 'Invalid -batch-wait value "1d": time: unknown unit "d" in duration "1d"',
      },
      {
        name: 'max errors syntax',
        args: ['-yes', '-max-errors', 'x', 'j'],
        expectedErr: 'Invalid -max-errors value "x": max errors must be an integer or a percentage',
      },
      {
        name: 'replacement timeout zero',
        args: ['-yes', '-replacement-timeout', '0s', 'j'],
        expectedErr: 'Invalid -replacement-timeout value "0s": duration must be greater than zero',
      },
      {
        name: 'replacement timeout syntax',
        args: ['-yes', '-replacement-timeout', 'soon', 'j'],
        expectedErr: 'Invalid -replacement-timeout value "soon": time: invalid duration "soon"',
      },
      {
        name: 'min healthy time syntax',
        args: ['-yes', '-wait-healthy', '-min-healthy-time', '1d', 'j'],
        expectedErr: 'Invalid -min-healthy-time value "1d": time: unknown unit "d" in duration "1d"',
      },
      {
        name: 'healthy deadline syntax',
        args: ['-yes', '-wait-healthy', '-healthy-deadline=soon', 'j'],
        expectedErr: 'Invalid -healthy-deadline value "soon": time: invalid duration "soon"',
      },
      {
        name: 'healthy deadline zero',
        args: ['-yes', '-wait-healthy', '-min-healthy-time=0s', '-healthy-deadline=0s', 'j'],
        expectedErr: 'Invalid -healthy-deadline value "0s": duration must be greater than zero',
      },
      {
        name: 'min healthy time longer than the deadline, both values named',
        args: ['-yes', '-wait-healthy', '-min-healthy-time=90s', '-healthy-deadline=1m', 'j'],
        expectedErr:
          'Invalid -min-healthy-time value "90s": minimum healthy time 1m30s must be less than -healthy-deadline 1m0s',
      },
      {
        name: 'min healthy time longer than the default deadline',
        args: ['-yes', '-wait-healthy', '-min-healthy-time=10m', 'j'],
        expectedErr:
          'Invalid -min-healthy-time value "10m": minimum healthy time 10m0s must be less than -healthy-deadline 5m0s',
      },
      {
        name: 'min healthy time without the gate',
        args: ['-yes', '-min-healthy-time=30s', 'j'],
        expectedErr: 'The -min-healthy-time option can only be used with -wait-healthy',
      },
      {
        name: 'engine value',
        args: ['-yes', '-engine', 'lambda', 'j'],
        expectedErr: 'Invalid -engine value "lambda": valid options are "local" and "aws"',
      },
      {
        name: 'aws engine needs an ARN',
        args: ['-yes', '-engine=aws', 'j'],
        expectedErr: 'The -engine=aws option requires -state-machine-arn',
      },
      {
        name: 'an ARN needs the aws engine',
        args: ['-yes', '-state-machine-arn', 'arn:x', 'j'],
        expectedErr: 'The -state-machine-arn option can only be used with -engine=aws',
      },
      {
        name: 'output value',
        args: ['-yes', '-output', 'yaml', 'j'],
        expectedErr: 'Invalid -output value "yaml": valid options are "text" and "json"',
      },
    ])('fails: $name', ({ args, expectedErr }) => {
      // Arrange / Act
      const act = () => parseJobRestartArgs(args, notTty);

      // Assert
      expect(messageOf(act)).toBe(expectedErr);
    });

    it.each([
      { name: 'ask with a TTY', args: ['-batch-wait', 'Ask', 'j'], interactive: true },
      {
        name: 'ask without a TTY but with -yes',
        args: ['-yes', '-batch-wait', 'ask', 'j'],
        interactive: false,
      },
    ])('accepts $name', ({ args, interactive }) => {
      // Arrange / Act
      const { options } = parseJobRestartArgs(args, { interactive, env: {} });

      // Assert
      expect(options.batchWait).toEqual({ kind: 'ask' });
    });

    it('reads 007 as 7, 200% as a percentage, trims the job and takes negative waits', () => {
      // Arrange / Act
      const a = parseJobRestartArgs(
        ['-yes', '-batch-size=007', '-batch-wait=-5s', ' my-job '],
        notTty,
      ).options;
      const b = parseJobRestartArgs(['-yes', '-batch-size=200%', 'j'], notTty).options;

      // Assert
      expect(a.batchSize).toEqual({ value: 7, percent: false });
      expect(a.batchWait).toEqual({ kind: 'duration', ns: -5e9 });
      expect(a.job).toBe('my-job');
      expect(b.batchSize).toEqual({ value: 200, percent: true });
    });

    it('deduplicates groups and tasks, keeping first occurrences', () => {
      // Arrange / Act
      const { options } = parseJobRestartArgs(
        ['-yes', '-group', 'b', '-group', 'a', '-group', 'b', '-task', 't', '-task', 't', 'j'],
        notTty,
      );

      // Assert
      expect(options.groups).toEqual(['b', 'a']);
      expect(options.tasks).toEqual(['t']);
    });
  });

  describe('Go flag syntax', () => {
    it.each([
      { name: 'unknown flag', args: ['-foo', 'j'], expectedErr: 'flag provided but not defined: -foo' },
      {
        name: 'unknown flag with value',
        args: ['--foo=bar', 'j'],
        expectedErr: 'flag provided but not defined: -foo',
      },
      {
        name: 'bad boolean',
        args: ['-yes=maybe', 'j'],
        expectedErr: 'invalid boolean value "maybe" for -yes: parse error',
      },
      {
        name: 'empty boolean',
        args: ['-verbose=', 'j'],
        expectedErr: 'invalid boolean value "" for -verbose: parse error',
      },
      { name: 'missing argument', args: ['-batch-size'], expectedErr: 'flag needs an argument: -batch-size' },
      { name: 'three dashes', args: ['---x', 'j'], expectedErr: 'bad flag syntax: ---x' },
      { name: 'dash equals', args: ['-=x', 'j'], expectedErr: 'bad flag syntax: -=x' },
    ])("fails with Go's message: $name", ({ args, expectedErr }) => {
      // Arrange / Act
      const act = () => parseJobRestartArgs(args, notTty);

      // Assert
      expect(act).toThrow(GoFlagError);
      expect(messageOf(act)).toBe(expectedErr);
    });

    it('marks flag errors as help-to-stdout without the additional-help line', () => {
      // Arrange
      let caught: unknown;

      // Act
      try {
        parseJobRestartArgs(['-nope'], notTty);
      } catch (err) {
        caught = err;
      }

      // Assert
      expect(caught).toMatchObject({ exitCode: 1, showHelp: true, additionalHelp: false });
    });

    it('marks value errors with the additional-help line and no help text', () => {
      // Arrange / Act
      const act = () => parseJobRestartArgs([], notTty);

      // Assert
      expect(act).toThrow(expect.objectContaining({ exitCode: 1, showHelp: false, additionalHelp: true }));
    });

    it.each([
      { name: 'double dash flags and =', args: ['--yes', '--batch-size=3', '--on-error', 'fail', 'j'] },
      {
        name: 'booleans with explicit true values',
        args: ['-yes=true', '-verbose=1', '-reschedule=T', '-on-error=fail', 'j'],
      },
    ])('accepts $name', ({ args }) => {
      // Arrange / Act
      const { options } = parseJobRestartArgs(args, notTty);

      // Assert
      expect(options.onError).toBe('fail');
      expect(options.job).toBe('j');
    });

    it('lets a string flag take the next argument even if it looks like a flag', () => {
      // Arrange / Act
      const { options } = parseJobRestartArgs(['-yes', '-group', '-verbose', 'j'], notTty);

      // Assert
      expect(options.groups).toEqual(['-verbose']);
      expect(options.verbose).toBe(false);
    });

    it.each([
      { name: 'after --', args: ['-yes', '--', '-job-with-dash'], job: '-job-with-dash' },
      { name: 'a single dash', args: ['-yes', '-'], job: '-' },
      { name: 'a command word', args: ['-yes', '--', 'demo'], job: 'demo' },
    ])('takes a positional job $name', ({ args, job }) => {
      // Arrange / Act
      const { options } = parseJobRestartArgs(args, notTty);

      // Assert
      expect(options.job).toBe(job);
    });

    it('turns -yes=false back off', () => {
      // Arrange / Act
      const { options } = parseJobRestartArgs(['-yes', '-yes=false', '-on-error=fail', 'j'], notTty);

      // Assert
      expect(options.yes).toBe(false);
    });

    it.each([['-h'], ['-help'], ['--help'], ['j', '-help']])('asks for help with %s', (...args) => {
      // Arrange / Act
      const act = () => parseJobRestartArgs(args, notTty);

      // Assert
      expect(act).toThrow(HelpRequestedError);
      expect(act).toThrow(expect.objectContaining({ exitCode: 0, showHelp: true }));
    });
  });

  describe('general options, engine and output', () => {
    it('reads NOMAD_* variables and lets flags override them', () => {
      // Arrange
      const env = {
        NOMAD_ADDR: 'http://10.0.0.1:4646',
        NOMAD_TOKEN: 'env-token',
        NOMAD_NAMESPACE: 'prod',
        NOMAD_REGION: 'eu',
        NOMAD_CACERT: '/ca.pem',
        NOMAD_SKIP_VERIFY: 'true',
        NOMAD_HTTP_AUTH: 'u:p',
        NO_COLOR: '1',
      };

      // Act
      const parsed = parseJobRestartArgs(['-yes', '-token', 'flag-token', '-region', 'us', 'j'], {
        interactive: false,
        env,
      });

      // Assert
      expect(parsed.general).toEqual({
        nomad: {
          address: 'http://10.0.0.1:4646',
          token: 'flag-token',
          namespace: 'prod',
          region: 'us',
          httpAuth: { username: 'u', password: 'p' },
          tls: { caCert: '/ca.pem', insecure: true },
        },
        noColor: true,
        forceColor: false,
      });
      expect(parsed.options.namespace).toBe('prod');
      expect(parsed.options.region).toBe('us');
    });

    it('defaults to the local agent, the local engine and text output', () => {
      // Arrange / Act
      const parsed = parseJobRestartArgs(['-yes', 'j'], notTty);

      // Assert
      expect(parsed.general).toEqual({
        nomad: { address: 'http://127.0.0.1:4646' },
        noColor: false,
        forceColor: false,
      });
      expect(parsed.engine).toEqual({ kind: 'local' });
      expect(parsed.output).toBe('text');
    });

    it('takes the aws engine, json output and our extra options', () => {
      // Arrange / Act
      const parsed = parseJobRestartArgs(
        [
          '-yes',
          '-engine=aws',
          '-state-machine-arn=arn:aws:states:eu-west-1:1:stateMachine:r',
          '-output=json',
          '-max-errors=10%',
          '-replacement-timeout=5m',
          '-dry-run',
          'j',
        ],
        notTty,
      );

      // Assert
      expect(parsed.engine).toEqual({
        kind: 'aws',
        stateMachineArn: 'arn:aws:states:eu-west-1:1:stateMachine:r',
      });
      expect(parsed.output).toBe('json');
      expect(parsed.options.maxErrors).toEqual({ value: 10, percent: true });
      expect(parsed.options.replacementTimeoutNs).toBe(300e9);
      expect(parsed.options.dryRun).toBe(true);
    });

    it("takes the health gate with its timings, and Nomad's update defaults without them", () => {
      // Arrange / Act
      const timed = parseJobRestartArgs(
        ['-yes', '-wait-healthy', '-min-healthy-time=30s', '--healthy-deadline', '2m', 'j'],
        notTty,
      );
      const defaults = parseJobRestartArgs(['-yes', '-wait-healthy', 'j'], notTty);
      const off = parseJobRestartArgs(['-yes', '-wait-healthy=false', 'j'], notTty);

      // Assert
      expect(timed.options.waitHealthy).toEqual({ minHealthyTimeNs: 30e9, healthyDeadlineNs: 120e9 });
      expect(defaults.options.waitHealthy).toEqual({ minHealthyTimeNs: 10e9, healthyDeadlineNs: 300e9 });
      expect(off.options.waitHealthy).toBeUndefined();
    });

    it.each([
      { name: 'a value error', args: ['-token', 's3cr3t', '-batch-size', 'x', 'j'] },
      { name: 'an argument count error', args: ['-token', 's3cr3t', 'a', 'b'] },
      { name: 'a flag error', args: ['-token=s3cr3t', '-nope', 'j'] },
      { name: 'a value error with the token in the environment', args: ['-on-error=x', 'j'] },
    ])('keeps the token out of $name', ({ args }) => {
      // Arrange
      const env = { NOMAD_TOKEN: 's3cr3t' };

      // Act
      const message = messageOf(() => parseJobRestartArgs(args, { interactive: false, env }));

      // Assert
      expect(message).not.toBe('');
      expect(message).not.toContain('s3cr3t');
    });
  });
});

describe('jobRestartHelp', () => {
  it('starts with the usage line and documents every flag the parser accepts', () => {
    // Arrange
    const flags = [
      'address',
      'region',
      'namespace',
      'no-color',
      'force-color',
      'ca-cert',
      'ca-path',
      'client-cert',
      'client-key',
      'tls-server-name',
      'tls-skip-verify',
      'token',
      'all-tasks',
      'batch-size',
      'batch-wait',
      'group',
      'no-shutdown-delay',
      'on-error',
      'reschedule',
      'task',
      'yes',
      'verbose',
      'dry-run',
      'engine',
      'max-errors',
      'output',
      'replacement-timeout',
      'state-machine-arn',
      'wait-healthy',
      'min-healthy-time',
      'healthy-deadline',
    ];

    // Act
    const help = jobRestartHelp();

    // Assert
    expect(help.startsWith('Usage: nomad-restart [options] <job>\n')).toBe(true);
    for (const flag of flags) expect(help).toMatch(new RegExp(`^  -${flag}\\b`, 'm'));
  });

  it('states every ACL capability and what -reschedule does', () => {
    // Arrange / Act
    const help = jobRestartHelp().replace(/\s+/g, ' ');

    // Assert
    for (const capability of ['alloc-lifecycle', 'read-job', 'list-jobs', 'submit-job', 'evaluate-job']) {
      expect(help).toContain(`'${capability}'`);
    }
    expect(help).toContain('allocations are stopped and the scheduler places a replacement');
    expect(help).toContain("Only with '-reschedule'");
  });
});
