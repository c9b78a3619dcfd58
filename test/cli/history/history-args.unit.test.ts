import { CommandArgumentError, GoFlagError, HelpRequestedError } from '../../../lib/cli/commands/errors';
import { DEFAULT_HISTORY_COUNT, parseHistoryArgs } from '../../../lib/cli/history/history-args';

describe('parseHistoryArgs', () => {
  it.each([
    {
      name: 'every history of the default namespace',
      args: [],
      env: {},
      expected: {
        target: { kind: 'all' },
        namespace: 'default',
        count: DEFAULT_HISTORY_COUNT,
        output: 'text',
      },
    },
    {
      name: 'one job in NOMAD_NAMESPACE',
      args: ['web'],
      env: { NOMAD_NAMESPACE: 'prod' },
      expected: { target: { kind: 'job', jobId: 'web' }, namespace: 'prod' },
    },
    {
      name: 'one run of a job, -namespace over NOMAD_NAMESPACE',
      args: ['-namespace', '*', 'web', '0b7f'],
      env: { NOMAD_NAMESPACE: 'prod' },
      expected: { target: { kind: 'job', jobId: 'web' }, prefix: '0b7f', namespace: '*' },
    },
    {
      name: '-n and -output json',
      args: ['-n', '2', '-output=json', 'web'],
      env: {},
      expected: { count: 2, output: 'json' },
    },
    {
      name: 'the fleet runs, one in full',
      args: ['-fleets', 'f1'],
      env: {},
      expected: { target: { kind: 'fleets' }, prefix: 'f1' },
    },
  ])('reads $name', ({ args, env, expected }) => {
    // Act
    const line = parseHistoryArgs(args, env);

    // Assert
    expect(line).toMatchObject(expected);
  });

  it.each([
    {
      name: '-n that is no integer',
      args: ['-n', 'ten', 'web'],
      type: GoFlagError,
      expectedErr: 'invalid value "ten" for flag -n: parse error',
    },
    {
      name: '-n 0',
      args: ['-n', '0', 'web'],
      type: CommandArgumentError,
      expectedErr: 'Invalid -n value "0": the number of runs to list must be 1 or more',
    },
    {
      name: 'three arguments',
      args: ['web', 'a', 'b'],
      type: CommandArgumentError,
      expectedErr: 'This command takes at most two arguments: [<job> [<run ID prefix>]]',
    },
    {
      name: 'two arguments with -fleets',
      args: ['-fleets', 'a', 'b'],
      type: CommandArgumentError,
      expectedErr: 'With -fleets this command takes at most one argument: <run ID prefix>',
    },
    {
      name: 'an -output that is neither text nor json',
      args: ['-output', 'yaml'],
      type: CommandArgumentError,
      expectedErr: 'Invalid -output value "yaml": valid options are "text" and "json"',
    },
    { name: '-help', args: ['-help'], type: HelpRequestedError, expectedErr: '' },
  ])('refuses $name', ({ args, type, expectedErr }) => {
    // Act
    const parse = () => parseHistoryArgs(args, {});

    // Assert
    expect(parse).toThrow(type);
    expect(parse).toThrow(expectedErr === '' ? /^$/ : expectedErr);
  });
});
