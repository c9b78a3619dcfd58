/**
 * Scenario: an operator used to `nomad job restart` passes `-address`, `-token` or a TLS option
 * with `-engine=aws`. The execution's Lambda functions reach Nomad through the deployment's own
 * connection, so the flag would do nothing: the command refuses it (exit 1, naming the flag and
 * why) before anything is started. A `-dry-run` plans from this machine, where the flags do
 * apply, and says which Nomad it planned against.
 */
import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { startSimulator } from '../../../sim/index';
import { runCommand } from '../../e2e/helpers/run-command';
import { MACHINE } from './helpers/fixtures';

const sfn = mockClient(SFNClient);
const AWS = ['-engine=aws', `-state-machine-arn=${MACHINE}`];

describe('Nomad connection options with -engine=aws', () => {
  afterEach(() => sfn.reset());

  it.each([
    { flag: 'address', args: ['-address', 'https://nomad.internal:4646'] },
    { flag: 'token', args: ['-token=secret-token-3c1d'] },
    { flag: 'ca-cert', args: ['-ca-cert', '/etc/nomad/ca.pem'] },
    { flag: 'ca-path', args: ['-ca-path', '/etc/nomad/cas'] },
    { flag: 'client-cert', args: ['-client-cert', '/etc/nomad/cli.pem'] },
    { flag: 'client-key', args: ['-client-key', '/etc/nomad/cli-key.pem'] },
    { flag: 'tls-server-name', args: ['-tls-server-name', 'server.global.nomad'] },
    { flag: 'tls-skip-verify', args: ['-tls-skip-verify'] },
    { flag: 'insecure', args: ['-insecure'] },
  ])('refuses -$flag, naming it and why, and starts nothing', async ({ flag, args }) => {
    // Act
    const result = await runCommand([...AWS, ...args, '-yes', 'example'], { AWS_REGION: 'eu-west-1' });

    // Assert
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `The -${flag} option cannot be used with -engine=aws: the execution reaches Nomad through the deployment's own connection (its nomadAddress, token and TLS secrets), so it would be ignored; only -dry-run, which plans from this machine, uses it\n` +
        "For additional help try 'nomad-restart -help'\n",
    );
    expect(result.stdout).toBe('');
    expect(sfn.calls()).toHaveLength(0);
  });

  it('keeps the options that travel with the execution (-namespace, -region)', async () => {
    // Arrange: an execution that ends at once.
    sfn.rejects(Object.assign(new Error('denied'), { name: 'AccessDeniedException', $metadata: {} }));

    // Act
    const result = await runCommand([...AWS, '-namespace', 'ops', '-region', 'eu', '-yes', 'example'], {
      AWS_REGION: 'eu-west-1',
    });

    // Assert: the start was attempted (and denied), with the options in its input.
    const sent = sfn.commandCalls(StartExecutionCommand)[0]?.args[0].input;
    expect(JSON.parse(sent?.input ?? '{}')).toMatchObject({ job: 'example', namespace: 'ops', region: 'eu' });
    expect(result.code).toBe(1);
  });

  it('says which Nomad a -dry-run planned against, and calls no AWS', async () => {
    // Arrange
    const sim = await startSimulator({ scenario: 'demo' });

    // Act
    let result: Awaited<ReturnType<typeof runCommand>>;
    try {
      result = await runCommand([...AWS, '-address', sim.address, '-dry-run', '-yes', 'example'], {});
    } finally {
      await sim.close();
    }

    // Assert
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe(
      `==> <ts>: Dry run planned against the Nomad at "${sim.address}" from this machine, not through the deployment's own Nomad connection`,
    );
    expect(result.stdout).toContain('Dry run: would restart 5 allocations of job "example"');
    expect(sfn.calls()).toHaveLength(0);
  });
});
