import { parseControlArgs } from '../../../lib/cli/commands/control-args';
import { CommandArgumentError, GoFlagError, HelpRequestedError } from '../../../lib/cli/commands/errors';

const ARN = 'arn:aws:states:eu-west-1:123456789012:execution:NomadRestart-Restart:web-1';

describe('parseControlArgs', () => {
  it.each([
    {
      name: 'a job in the default namespace',
      args: ['web'],
      env: {},
      key: { namespace: 'default', jobId: 'web' },
    },
    {
      name: 'a job in the namespace of -namespace',
      args: ['-namespace', 'prod', 'web'],
      env: { NOMAD_NAMESPACE: 'dev' },
      key: { namespace: 'prod', jobId: 'web' },
    },
    {
      name: 'a job in NOMAD_NAMESPACE',
      args: ['web'],
      env: { NOMAD_NAMESPACE: 'dev' },
      key: { namespace: 'dev', jobId: 'web' },
    },
  ])('reads $name', ({ args, env, key }) => {
    // Act
    const line = parseControlArgs(args, env);

    // Assert
    expect(line).toMatchObject({ form: 'job', key });
  });

  it('reads an execution ARN', () => {
    // Act
    const line = parseControlArgs([ARN], {});

    // Assert
    expect(line).toEqual({ form: 'execution', executionArn: ARN });
  });

  it.each([
    { name: 'no target', args: [], expectedErr: 'This command takes one argument: <job | execution ARN>' },
    {
      name: 'two targets',
      args: ['web', 'api'],
      expectedErr: 'This command takes one argument: <job | execution ARN>',
    },
    {
      name: '-namespace "*"',
      args: ['-namespace', '*', 'web'],
      expectedErr: 'Invalid -namespace value "*": a request is for one job, in one namespace',
    },
    {
      name: 'a malformed ARN',
      args: ['arn:aws:states:eu-west-1:123456789012:execution:m'],
      expectedErr:
        'Invalid execution ARN "arn:aws:states:eu-west-1:123456789012:execution:m": ' +
        'expected arn:<partition>:states:<region>:<account>:execution:<state machine>:<name>',
    },
    {
      name: '-token with an ARN',
      args: ['-token', 'secret', ARN],
      expectedErr:
        "The -token option cannot be used with an execution ARN: the request goes through the stack's tables, " +
        'and the execution names its job',
    },
  ])('fails with $name', ({ args, expectedErr }) => {
    // Act
    const parse = () => parseControlArgs(args, {});

    // Assert
    expect(parse).toThrow(CommandArgumentError);
    expect(parse).toThrow(expectedErr);
  });

  it('fails Go-style on a flag it does not define, and asks for help on -help', () => {
    // Act
    const unknown = () => parseControlArgs(['-yes', 'web'], {});
    const help = () => parseControlArgs(['-help'], {});

    // Assert
    expect(unknown).toThrow(GoFlagError);
    expect(unknown).toThrow('flag provided but not defined: -yes');
    expect(help).toThrow(HelpRequestedError);
  });
});
