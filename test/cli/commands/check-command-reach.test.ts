/**
 * Scenario: `nomad-restart check -job` in-process against a faked Step Functions that runs the
 * check execution through the synthesized definition, the local engine and the real handlers,
 * whose functions call the simulator with ACLs on and the README's policy. The plan function reads
 * the job (and its allocations) before the question: PASS with what Nomad said; an unknown job
 * (404), a namespace the policy does not cover (403) and a Nomad nobody listens on each FAIL with
 * the error the function saw and the fix, while the answer path is still proved; a job with
 * Consul services has its checks read with the README's Consul policy, or the refusal reported.
 * Nothing is written to Nomad.
 */
import { CloudWatchClient, DescribeAlarmsCommand } from '@aws-sdk/client-cloudwatch';
import { SFNClient } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { CHECK_USAGE, runCheckCommand } from '../../../lib/cli/commands/check-command';
import type { ConsulClientConfig } from '../../../lib/consul/config';
import { NOMAD_NETWORK_FIX } from '../../../lib/engines/aws/check/nomad-reach';
import { loadLocalDefinition } from '../../../lib/engines/local/local-definition';
import type { NomadClientConfig } from '../../../lib/nomad';
import { FakeStepFunctions } from '../../engines/aws/helpers/fake-step-functions';
import { fakeTerminal, MACHINE } from '../../engines/aws/helpers/fixtures';
import { type LocalExecutions, runExecutionsLocally } from '../../engines/aws/helpers/local-executions';
import { bindToSdkMock } from '../../engines/aws/helpers/sdk-binding';
import { OPERATOR_TOKEN, readmeConsulPolicyToken, readmePolicyAcl } from '../../fixtures/readme-policy';
import { consulJob } from '../../steps/health/helpers/consul-fixtures';
import { type Harness, harnessPerTest, simpleJob } from '../../steps/helpers/harness';

const sfn = mockClient(SFNClient);
const cloudwatch = mockClient(CloudWatchClient);
const harness = harnessPerTest();

let fake: FakeStepFunctions;
let executions: LocalExecutions | undefined;

beforeAll(async () => {
  await loadLocalDefinition();
}, 300_000);

beforeEach(() => {
  fake = new FakeStepFunctions();
  bindToSdkMock(sfn, fake);
  cloudwatch.on(DescribeAlarmsCommand).resolves({
    MetricAlarms: [
      {
        AlarmName: 'NomadRestart-ExecutionsFailed',
        ActionsEnabled: true,
        AlarmActions: ['arn:aws:sns:eu-west-1:123456789012:nomad-restart-alarms'],
      },
    ],
  });
});
afterEach(async () => {
  await executions?.settled();
  executions = undefined;
  sfn.reset();
  cloudwatch.reset();
});

/** Two allocations of `web` on an agent with ACLs on, namespaces default and prod. */
const cluster = () =>
  harness.startRunning(
    simpleJob('web', 'service', 2),
    { token: OPERATOR_TOKEN },
    { acl: readmePolicyAcl(), namespaces: ['default', 'prod'] },
  );

/** The functions hold the README's token for `h`'s agent. */
const functionsCall = (h: Harness): NomadClientConfig => ({ address: h.sim.address, token: OPERATOR_TOKEN });

/** Runs `check` with the functions calling `nomad` (and `consul`); the execution id made stable. */
async function check(args: string[], nomad: NomadClientConfig, consul?: ConsulClientConfig) {
  executions = runExecutionsLocally(fake, { nomad, ...(consul === undefined ? {} : { consul }) });
  const tty = fakeTerminal();
  tty.streams.stdin.isTTY = false;
  const exitCode = await runCheckCommand([`-state-machine-arn=${MACHINE}`, ...args], {
    ...tty.streams,
    env: {},
    awsClients: { sfn: new SFNClient({ region: 'eu-west-1' }), cloudwatch: new CloudWatchClient({}) },
    pollMs: 20,
    waitMs: 60_000,
  });
  const lines = tty
    .output()
    .replaceAll(/check-[0-9a-f-]{36}/g, 'check-<id>')
    .replaceAll(nomad.address, '<nomad>')
    .split('\n');
  return { exitCode, lines, stderr: tty.stderr() };
}

/** The lines of the check's read, between the start line and the question's. */
const readLines = (lines: readonly string[]) =>
  lines.slice(1, lines.indexOf('PASS the ask function parks the check question'));

/** The routes the simulator served since `before`, the total aside. */
function routesSince(h: Harness, before: Record<string, number>): string[] {
  const after = h.sim.control.counters();
  return Object.keys(after)
    .filter((route) => route !== 'total' && after[route] !== before[route])
    .sort();
}

describe('nomad-restart check -job', () => {
  it('passes when the functions read the job with the README policy, sending only reads', async () => {
    // Arrange
    const h = await cluster();
    const before = h.sim.control.counters();

    // Act
    const { exitCode, lines } = await check(['-job', 'web'], functionsCall(h));

    // Assert
    expect(readLines(lines)).toEqual([
      'PASS the functions read job "web" from Nomad at "<nomad>": a service job, status running, 2 allocations, in namespace "default" (it declares no Consul service: Consul not read)',
    ]);
    expect(lines).toContain('All 6 checks passed');
    expect(exitCode).toBe(0);
    const [started] = fake.received('StartExecution');
    expect(JSON.parse(String(started?.['input']))).toEqual({ deploymentCheck: true, reach: { job: 'web' } });
    expect(routesSince(h, before)).toEqual(['GET /v1/job/:id', 'GET /v1/job/:id/allocations']);
  });

  it('fails an unknown job with the check of -job and -namespace as the fix, and still proves the answer path', async () => {
    // Arrange
    const h = await cluster();

    // Act
    const { exitCode, lines } = await check(['-job', 'nope'], functionsCall(h));

    // Assert
    expect(readLines(lines)).toEqual([
      'FAIL the functions read job "nope" from Nomad at "<nomad>": Unexpected response code: 404 (job not found)',
      '  fix: check -job and -namespace: Nomad at "<nomad>" has no job "nope" in namespace "default"',
    ]);
    expect(lines).toContain('PASS the check execution ends with the answer');
    expect(lines).toContain('1 of 6 checks failed');
    expect(exitCode).toBe(1);
  });

  it("fails a namespace the token's policy does not cover with the README policy as the fix", async () => {
    // Arrange
    const h = await cluster();

    // Act
    const { exitCode, lines } = await check(['-job', 'web', '-namespace', 'prod'], functionsCall(h));

    // Assert
    expect(readLines(lines)).toEqual([
      'FAIL the functions read job "web" from Nomad at "<nomad>": Unexpected response code: 403 (Permission denied)',
      `  fix: give the ACL token in the Nomad token secret the README's policy in namespace "prod" (policy = "read" grants read-job, which this read needs; Nomad's 403 does not name it)`,
    ]);
    expect(exitCode).toBe(1);
  });

  it('fails a Nomad nobody answers at with the network fix', async () => {
    // Arrange: an agent that has gone away, its port closed.
    const h = await cluster();
    const nomad = functionsCall(h);
    await h.sim.close();

    // Act
    const { exitCode, lines } = await check(['-job', 'web'], nomad);

    // Assert
    const read = readLines(lines);
    expect(read[0]).toMatch(
      /^FAIL the functions read job "web" from Nomad at "<nomad>": Get "<nomad>\/v1\/job\/web": dial tcp 127\.0\.0\.1:\d+: connect: connection refused$/,
    );
    expect(read[1]).toBe(`  fix: ${NOMAD_NETWORK_FIX}`);
    expect(lines).toContain('PASS the check execution ends with the answer');
    expect(exitCode).toBe(1);
  }, 120_000);

  /** Job "web" with a Consul service, Nomad under the README's policy, Consul's ACLs on with its Consul policy's token. */
  async function startConsulJob() {
    const h = await harness.startRunning(
      consulJob('web', 1),
      { token: OPERATOR_TOKEN },
      { acl: readmePolicyAcl() },
    );
    h.sim.consul.control.configureAcl({ enabled: true, tokens: [readmeConsulPolicyToken('consul-token')] });
    return h;
  }

  it("passes a job with Consul services when the functions read its checks with the README's Consul policy", async () => {
    // Arrange
    const h = await startConsulJob();

    // Act
    const { exitCode, lines } = await check(['-job', 'web'], functionsCall(h), {
      address: h.sim.consul.address,
      token: 'consul-token',
    });

    // Assert
    expect(readLines(lines)).toEqual([
      'PASS the functions read job "web" from Nomad at "<nomad>": a service job, status running, 1 allocations, in namespace "default"',
      expect.stringMatching(
        /^PASS the functions read the checks of Consul service "web-web" \(of job "web"\): [1-9]\d* checks$/,
      ),
    ]);
    expect(exitCode).toBe(0);
  });

  it('fails a Consul that refuses the token, with the README Consul policy as the fix', async () => {
    // Arrange
    const h = await startConsulJob();

    // Act
    const { exitCode, lines } = await check(['-job', 'web'], functionsCall(h), {
      address: h.sim.consul.address,
      token: 'another-token',
    });

    // Assert
    const read = readLines(lines);
    expect(read[1]).toMatch(
      /^FAIL the functions read the checks of Consul service "web-web" \(of job "web"\): Consul refused the Consul token \(GET http:\/\/127\.0\.0\.1:\d+\/v1\/health\/checks\/web-web: Unexpected response code: 403 \(ACL not found\)\)$/,
    );
    expect(read[2]).toBe(
      `  fix: put in the Consul token secret a token Consul knows ("ACL not found" otherwise) with the README's Consul policy (read on the job's services and their nodes)`,
    );
    expect(exitCode).toBe(1);
  });

  it('refuses -namespace without -job, starting nothing', async () => {
    // Arrange
    const h = await cluster();

    // Act
    const { exitCode, stderr } = await check(['-namespace', 'prod'], functionsCall(h));

    // Assert
    expect(stderr).toBe(`-namespace is the namespace of -job: give -job too\n${CHECK_USAGE}\n`);
    expect(exitCode).toBe(1);
    expect(fake.calls).toEqual([]);
  });
});
