import { CommandArgumentError, GoFlagError, HelpRequestedError } from '../../../lib/cli/commands/errors';
import { parseFleetArgs } from '../../../lib/cli/commands/fleet-command';
import { fleetHelp } from '../../../lib/cli/commands/fleet-help';
import { RESTART_COMMAND_FLAGS } from '../../../lib/cli/commands/restart-flags';
import { sharedJobInput, toFleetInput } from '../../../lib/fleet/input';

const notTty = { interactive: false, env: {} };
const tty = { interactive: true, env: {} };

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

describe('parseFleetArgs', () => {
  describe('bad command lines', () => {
    it.each([
      {
        name: 'a bare fleet',
        args: [],
        expectedErr:
          'A fleet restart needs a selection: give at least one of -filter, -node, -node-pool, -datacenter, -uses-variable, -uses-secret or -namespace (or NOMAD_NAMESPACE); it never restarts every job by default',
      },
      {
        name: 'a bare fleet with -yes',
        args: ['-yes'],
        expectedErr:
          'A fleet restart needs a selection: give at least one of -filter, -node, -node-pool, -datacenter, -uses-variable, -uses-secret or -namespace (or NOMAD_NAMESPACE); it never restarts every job by default',
      },
      {
        name: 'a job name as an argument',
        args: ['-yes', '-namespace', 'web', 'my-job'],
        expectedErr:
          'This command takes no arguments (got "my-job"): jobs are selected with -namespace, -filter, -node, -node-pool or -datacenter',
      },
      {
        name: 'an empty -uses-variable',
        args: ['-yes', '-uses-variable', ''],
        expectedErr:
          'Invalid -uses-variable value "": expected a Nomad variable path, such as "nomad/jobs/shared/db", or a prefix ending in "*"',
      },
      {
        name: '-stale without -uses-variable',
        args: ['-yes', '-namespace', 'web', '-stale'],
        expectedErr:
          "Invalid -stale: it needs -uses-variable <path>: each job's time is the newest change of the variables it reads there",
      },
      {
        name: '-task',
        args: ['-yes', '-namespace', 'web', '-task', 'api'],
        expectedErr:
          "The -task option cannot be used with fleet: it names a task inside one job; restart that job with 'nomad-restart -task <name> <job>'",
      },
      {
        name: '-group',
        args: ['-yes', '-namespace', 'web', '-group=g'],
        expectedErr:
          "The -group option cannot be used with fleet: it names a group inside one job; restart that job with 'nomad-restart -group <name> <job>'",
      },
      {
        name: '-max-jobs 0',
        args: ['-yes', '-namespace', 'web', '-max-jobs', '0'],
        expectedErr: 'Invalid -max-jobs value "0": number value must be greater than zero',
      },
      {
        name: '-max-jobs not a number',
        args: ['-yes', '-namespace', 'web', '-max-jobs', 'many'],
        expectedErr: 'Invalid -max-jobs value "many": max jobs must be an integer greater than zero',
      },
      {
        name: '-max-jobs a decimal',
        args: ['-yes', '-namespace', 'web', '-max-jobs=1.5'],
        expectedErr: 'Invalid -max-jobs value "1.5": max jobs must be an integer greater than zero',
      },
      {
        name: '-max-failed-jobs -1',
        args: ['-yes', '-namespace', 'web', '-max-failed-jobs', '-1'],
        expectedErr:
          'Invalid -max-failed-jobs value "-1": max failed jobs must be an integer greater than or equal to zero',
      },
      {
        name: '-max-failed-jobs a percentage',
        args: ['-yes', '-namespace', 'web', '-max-failed-jobs', '10%'],
        expectedErr:
          'Invalid -max-failed-jobs value "10%": max failed jobs must be an integer greater than or equal to zero',
      },
      {
        name: 'an unknown -order',
        args: ['-yes', '-namespace', 'web', '-order', 'name'],
        expectedErr: 'Invalid -order value "name": valid options are "id" and "priority"',
      },
      {
        name: 'an empty -filter',
        args: ['-yes', '-filter', ''],
        expectedErr:
          'Invalid -filter value "": expected a filter expression, such as \'Meta.team == "payments"\'',
      },
      {
        name: 'an empty -node',
        args: ['-yes', '-node', 'abcd', '-node', ''],
        expectedErr: 'Invalid -node value "": expected a node ID or ID prefix',
      },
      {
        name: 'an empty -node-pool',
        args: ['-yes', '-node-pool='],
        expectedErr: 'Invalid -node-pool value "": expected a node pool name',
      },
      {
        name: 'an empty -datacenter',
        args: ['-yes', '-datacenter='],
        expectedErr: 'Invalid -datacenter value "": expected a datacenter name',
      },
      {
        name: 'the default -on-error ask without a terminal (the one-job message)',
        args: ['-namespace', 'web'],
        expectedErr: 'Invalid -on-error value "ask": "ask" cannot be used when terminal is not interactive',
      },
      {
        name: '-batch-wait ask without a terminal',
        args: ['-on-error=fail', '-batch-wait', 'ask', '-namespace', 'web'],
        expectedErr: 'Invalid -batch-wait value "ask": "ask" cannot be used when terminal is not interactive',
      },
      {
        name: 'a one-job value check',
        args: ['-yes', '-namespace', 'web', '-batch-size', '0'],
        expectedErr: 'Invalid -batch-size value "0": number value must be greater than zero',
      },
      {
        name: 'a -reason longer than 200 characters',
        args: ['-yes', '-namespace', 'web', '-reason', 'r'.repeat(201)],
        expectedErr: `Invalid -reason value "${'r'.repeat(201)}": must be at most 200 characters, got 201`,
      },
      {
        name: 'a -reason of two lines',
        args: ['-yes', '-namespace', 'web', '-reason', 'CHG-1\nrotate'],
        expectedErr:
          'Invalid -reason value "CHG-1\\nrotate": must be one line, without control characters (found "\\n")',
      },
      {
        name: 'aws without an ARN',
        args: ['-yes', '-namespace', 'web', '-engine=aws'],
        expectedErr: 'The -engine=aws option requires -state-machine-arn',
      },
    ])('refuses $name', ({ args, expectedErr }) => {
      // Arrange / Act
      const error = errorOf(() => parseFleetArgs(args, notTty));

      // Assert
      expect(error).toBeInstanceOf(CommandArgumentError);
      expect(error.message).toBe(expectedErr);
    });

    it('reports an undefined flag as Go does', () => {
      // Arrange / Act
      const error = errorOf(() => parseFleetArgs(['-namespace', 'web', '-max-job', '2'], notTty));

      // Assert
      expect(error).toBeInstanceOf(GoFlagError);
      expect(error.message).toBe('flag provided but not defined: -max-job');
    });

    it.each([['-h'], ['-help'], ['--help']])('shows the help for %s', (flag) => {
      // Arrange / Act
      const error = errorOf(() => parseFleetArgs(['-namespace', 'web', flag], notTty));

      // Assert
      expect(error).toBeInstanceOf(HelpRequestedError);
    });
  });

  describe('selection', () => {
    it('counts NOMAD_NAMESPACE as an explicit namespace', () => {
      // Arrange
      const ctx = { interactive: false, env: { NOMAD_NAMESPACE: 'payments' } };

      // Act
      const line = parseFleetArgs(['-yes'], ctx);

      // Assert
      expect(line.fleet.selection).toEqual({ namespace: 'payments' });
    });

    it('does not count an empty NOMAD_NAMESPACE', () => {
      // Arrange
      const ctx = { interactive: false, env: { NOMAD_NAMESPACE: '' } };

      // Act
      const error = errorOf(() => parseFleetArgs(['-yes'], ctx));

      // Assert
      expect(error.message).toMatch(/^A fleet restart needs a selection/);
    });

    it('lets the -namespace flag win over NOMAD_NAMESPACE', () => {
      // Arrange
      const ctx = { interactive: false, env: { NOMAD_NAMESPACE: 'payments' } };

      // Act
      const line = parseFleetArgs(['-yes', '-namespace', '*'], ctx);

      // Assert
      expect(line.fleet.selection.namespace).toBe('*');
      expect(line.general.nomad.namespace).toBe('*');
    });

    it('reads every selector, repeated ones once each', () => {
      // Arrange
      const args = [
        '-yes',
        '-filter',
        'Meta.team == "payments"',
        '-node',
        'ab12',
        '-node',
        'cd34',
        '-node',
        'ab12',
        '-node-pool',
        'gpu',
        '-datacenter',
        'dc1',
        '-datacenter',
        'dc2',
      ];

      // Act
      const line = parseFleetArgs(args, notTty);

      // Assert
      expect(line.fleet.selection).toEqual({
        filter: 'Meta.team == "payments"',
        nodes: ['ab12', 'cd34'],
        nodePool: 'gpu',
        datacenters: ['dc1', 'dc2'],
      });
    });

    it.each([
      { name: '-filter', args: ['-filter', 'Type == "service"'] },
      { name: '-node', args: ['-node', 'ab12'] },
      { name: '-node-pool', args: ['-node-pool', 'gpu'] },
      { name: '-datacenter', args: ['-datacenter', 'dc1'] },
      { name: '-namespace', args: ['-namespace', 'default'] },
      { name: '-uses-variable', args: ['-uses-variable', 'nomad/jobs/shared/db'] },
      { name: '-uses-secret', args: ['-uses-secret', 'kv/payments/db'] },
    ])('takes $name alone as a selection', ({ args }) => {
      // Arrange / Act
      const act = () => parseFleetArgs(['-yes', ...args], notTty);

      // Assert
      expect(act).not.toThrow();
    });
  });

  describe('consumer options', () => {
    it('reads -uses-variable and -uses-secret, repeatable, and -stale', () => {
      // Arrange
      const args = [
        '-yes',
        '-uses-variable',
        'nomad/jobs/shared/db',
        '-uses-variable=cfg/*',
        '-uses-secret',
        'kv/payments/db',
        '-stale',
      ];

      // Act
      const line = parseFleetArgs(args, notTty);

      // Assert
      expect(line.fleet.selection).toEqual({
        usesVariables: ['nomad/jobs/shared/db', 'cfg/*'],
        usesSecrets: ['kv/payments/db'],
      });
      expect(line.fleet.stale).toBe(true);
    });
  });

  describe('budget, order and job options', () => {
    it('defaults to one job at a time, no failed job tolerated, in ID order', () => {
      // Arrange / Act
      const line = parseFleetArgs(['-yes', '-namespace', 'web'], notTty);

      // Assert
      expect(line.fleet).toEqual(expect.objectContaining({ maxJobs: 1, maxFailedJobs: 0, order: 'id' }));
      expect(line.engine).toEqual({ kind: 'local' });
      expect(line.output).toBe('text');
    });

    it('reads -max-jobs, -max-failed-jobs and -order', () => {
      // Arrange / Act
      const line = parseFleetArgs(
        ['-yes', '-namespace', 'web', '-max-jobs=3', '-max-failed-jobs', '1', '-order', 'priority'],
        notTty,
      );

      // Assert
      expect(line.fleet).toEqual(
        expect.objectContaining({ maxJobs: 3, maxFailedJobs: 1, order: 'priority' }),
      );
    });

    it('keeps the one-job options every job shares, without a job, groups or tasks', () => {
      // Arrange / Act
      const line = parseFleetArgs(
        [
          '-namespace',
          'web',
          '-batch-size',
          '25%',
          '-batch-wait',
          'ask',
          '-on-error',
          'fail',
          '-max-errors',
          '2',
        ],
        tty,
      );

      // Assert
      expect(line.fleet.jobOptions).toEqual(
        expect.objectContaining({
          batchSize: { value: 25, percent: true },
          batchWait: { kind: 'ask' },
          onError: 'fail',
          maxErrors: { value: 2, percent: false },
          yes: false,
        }),
      );
      for (const oneJob of ['job', 'groups', 'tasks', 'namespace', 'fleet', 'scope'])
        expect(line.fleet.jobOptions).not.toHaveProperty(oneJob);
    });

    it("keeps -reason with the options every job shares, so each job's record carries it", () => {
      // Arrange / Act
      const line = parseFleetArgs(
        ['-yes', '-namespace', 'web', '-reason', 'CHG-1234 rotate the TLS certificate'],
        notTty,
      );

      // Assert
      expect(line.fleet.jobOptions.reason).toBe('CHG-1234 rotate the TLS certificate');
      expect(toFleetInput(line.fleet)).toMatchObject({ reason: 'CHG-1234 rotate the TLS certificate' });
      expect(sharedJobInput(line.fleet.jobOptions)).toMatchObject({
        reason: 'CHG-1234 rotate the TLS certificate',
      });
    });

    it('takes the aws engine with the fleet state machine ARN', () => {
      // Arrange
      const arn = 'arn:aws:states:eu-west-1:123456789012:stateMachine:fleet';

      // Act
      const line = parseFleetArgs(
        ['-yes', '-namespace', 'web', '-engine=aws', '-state-machine-arn', arn],
        notTty,
      );

      // Assert
      expect(line.engine).toEqual({ kind: 'aws', stateMachineArn: arn });
    });
  });
});

describe('fleetHelp', () => {
  it('lists every flag the fleet takes but -task and -group', () => {
    // Arrange
    const help = fleetHelp();
    const taken = [
      ...Object.keys(RESTART_COMMAND_FLAGS).filter((flag) => flag !== 'task' && flag !== 'group'),
      'filter',
      'node',
      'node-pool',
      'datacenter',
      'max-jobs',
      'max-failed-jobs',
      'order',
      'uses-variable',
      'uses-secret',
      'stale',
    ].filter((flag) => flag !== 'insecure'); // Nomad's hidden alias of -tls-skip-verify.

    // Act
    const listed = [...help.matchAll(/^ {2}-([a-z-]+)(?:=|$)/gm)].map((match) => match[1]);

    // Assert
    expect([...listed].sort()).toEqual([...new Set(taken)].sort());
    expect(help).toMatch(/^Usage: nomad-restart fleet \[options\]/);
  });
});
