// Scenario: `nomad-restart fleet` through the real command line (a subprocess, no terminal): every
// bad command line is refused with a message naming the flag and quoting the value, exit 1, before
// anything is touched — NOMAD_ADDR points at a closed port, so any request would show up as a
// connection error instead of the message.
import { runCli } from './helpers/run-cli';

const NO_NOMAD = { NOMAD_ADDR: 'http://127.0.0.1:9' };
const HELP_LINE = "For additional help try 'nomad-restart fleet -help'";
const NEEDS_SELECTION =
  'A fleet restart needs a selection: give at least one of -filter, -node, -node-pool, -datacenter, -uses-variable, -uses-secret or -namespace (or NOMAD_NAMESPACE); it never restarts every job by default';

describe('nomad-restart fleet command line', () => {
  it.each([
    { name: 'a bare fleet', args: ['fleet'], expectedErr: NEEDS_SELECTION },
    {
      name: 'a bare fleet with -yes',
      args: ['fleet', '-yes', '-max-jobs', '3'],
      expectedErr: NEEDS_SELECTION,
    },
    {
      name: '-task',
      args: ['fleet', '-yes', '-namespace', '*', '-task', 'api'],
      expectedErr:
        "The -task option cannot be used with fleet: it names a task inside one job; restart that job with 'nomad-restart -task <name> <job>'",
    },
    {
      name: '-group',
      args: ['fleet', '-yes', '-namespace', '*', '-group', 'web'],
      expectedErr:
        "The -group option cannot be used with fleet: it names a group inside one job; restart that job with 'nomad-restart -group <name> <job>'",
    },
    {
      name: '-max-jobs 0',
      args: ['fleet', '-yes', '-namespace', '*', '-max-jobs', '0'],
      expectedErr: 'Invalid -max-jobs value "0": number value must be greater than zero',
    },
    {
      name: 'a non-numeric -max-jobs',
      args: ['fleet', '-yes', '-namespace', '*', '-max-jobs', 'all'],
      expectedErr: 'Invalid -max-jobs value "all": max jobs must be an integer greater than zero',
    },
    {
      name: '-max-failed-jobs -1',
      args: ['fleet', '-yes', '-namespace', '*', '-max-failed-jobs=-1'],
      expectedErr:
        'Invalid -max-failed-jobs value "-1": max failed jobs must be an integer greater than or equal to zero',
    },
    {
      name: 'an unknown -order',
      args: ['fleet', '-yes', '-namespace', '*', '-order', 'random'],
      expectedErr: 'Invalid -order value "random": valid options are "id" and "priority"',
    },
    {
      name: 'an empty -uses-variable',
      args: ['fleet', '-yes', '-uses-variable', ''],
      expectedErr:
        'Invalid -uses-variable value "": expected a Nomad variable path, such as "nomad/jobs/shared/db", or a prefix ending in "*"',
    },
    {
      name: '-stale without -uses-variable',
      args: ['fleet', '-yes', '-namespace', '*', '-uses-secret', 'kv/payments/db', '-stale'],
      expectedErr:
        "Invalid -stale: it needs -uses-variable <path>: each job's time is the newest change of the variables it reads there",
    },
    {
      name: '-stale with -started-before',
      args: ['fleet', '-yes', '-uses-variable', 'nomad/jobs/shared/db', '-stale', '-started-before', '2h'],
      expectedErr:
        'Invalid -stale with -started-before "2h": both give the time allocations must have started after; give one',
    },
    {
      name: 'a job name',
      args: ['fleet', '-yes', '-namespace', '*', 'web'],
      expectedErr:
        'This command takes no arguments (got "web"): jobs are selected with -namespace, -filter, -node, -node-pool or -datacenter',
    },
    {
      name: 'questions without -yes and without a terminal',
      args: ['fleet', '-namespace', '*'],
      expectedErr: 'Invalid -on-error value "ask": "ask" cannot be used when terminal is not interactive',
    },
  ])('refuses $name with the message and the help line', async ({ args, expectedErr }) => {
    // Act
    const result = await runCli(args, NO_NOMAD);

    // Assert
    expect(result).toEqual({ code: 1, stdout: '', stderr: `${expectedErr}\n${HELP_LINE}\n` });
  });

  it('reports an unknown flag like Go’s flag package: message on stderr, the fleet help on stdout', async () => {
    // Act
    const result = await runCli(['fleet', '-namespace', '*', '-max-job', '2'], NO_NOMAD);

    // Assert
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('flag provided but not defined: -max-job\n');
    expect(result.stdout).toMatch(/^Usage: nomad-restart fleet \[options\]/);
  });

  it('prints the help on stdout for -help, exit 0', async () => {
    // Act
    const result = await runCli(['fleet', '-help'], NO_NOMAD);

    // Assert
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^Usage: nomad-restart fleet \[options\]\n/);
    expect(result.stdout).toContain('  -max-jobs=<n>\n');
  });
});
