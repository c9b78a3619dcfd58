/**
 * Scenario: the real `nomad-restart check` in a subprocess (the bin shim, as `npx` runs it),
 * reaching Step Functions through `AWS_ENDPOINT_URL_SFN` on 127.0.0.1, where each execution it
 * starts runs through the synthesized definition and the real handlers; CloudWatch's endpoint
 * is a port nothing listens on. The answer path passes, the alarm check fails naming what it
 * could not read, and the command exits 1; without an ARN it prints its usage and starts nothing.
 */
import { loadLocalDefinition } from '../../../lib/engines/local/local-definition';
import { runCli } from '../../e2e/helpers/run-cli';
import { MACHINE, REGION } from '../../engines/aws/helpers/fixtures';
import { runExecutionsLocally } from '../../engines/aws/helpers/local-executions';
import { localAwsEnv, sfnEndpointPerTest } from '../../engines/aws/helpers/sfn-endpoint';

const served = sfnEndpointPerTest();

beforeAll(async () => {
  await loadLocalDefinition();
}, 300_000);

/** Port 9 (discard): nothing listens there on a test machine, so a connection is refused at once. */
const NOWHERE = 'http://127.0.0.1:9';

describe('nomad-restart check, run as a command', () => {
  it('answers its check question through the endpoint and fails the alarms it cannot read', async () => {
    // Arrange
    const executions = runExecutionsLocally(served.fake);
    const env = localAwsEnv(
      { AWS_ENDPOINT_URL_SFN: served.endpoint.url, AWS_ENDPOINT_URL_CLOUDWATCH: NOWHERE },
      REGION,
    );

    // Act
    const result = await runCli(['check', `-state-machine-arn=${MACHINE}`], env);
    await executions.settled();

    // Assert
    const lines = result.stdout.split('\n');
    expect(lines.slice(0, 4).map((line) => line.split(' ').slice(0, 4).join(' '))).toEqual([
      'PASS a deployment check',
      'PASS the ask function',
      'PASS this identity answers',
      'PASS the check execution',
    ]);
    expect(lines[4]).toMatch(
      /^FAIL the alarms of stack "NomadRestart" notify someone: Error listing the alarms named "NomadRestart-\*": ECONNREFUSED/,
    );
    expect(result.stderr).toBe('1 of 5 checks failed\n');
    expect(result.code).toBe(1);
    expect([...served.fake.executions.values()].map((e) => e.status)).toEqual(['SUCCEEDED']);
  }, 120_000);

  it('prints its usage for a missing ARN and starts nothing', async () => {
    // Act
    const result = await runCli(
      ['check'],
      localAwsEnv({ AWS_ENDPOINT_URL_SFN: served.endpoint.url }, REGION),
    );

    // Assert
    expect(result.stderr).toMatch(
      /^The check command requires -state-machine-arn\nUsage: nomad-restart check \[options\]/,
    );
    expect(result.code).toBe(1);
    expect(served.fake.calls).toEqual([]);
  });
});
