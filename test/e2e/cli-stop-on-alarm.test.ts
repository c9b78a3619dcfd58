// Scenario: -stop-on-alarm through the real command (a subprocess) against the simulator with a
// token holding exactly the README's policy, CloudWatch being the fake on 127.0.0.1
// (AWS_ENDPOINT_URL_CLOUDWATCH) read with the command's own AWS settings:
// - an alarm that does not exist is refused before anything is touched, naming it (exit 1);
// - without AWS credentials the flag is refused before anything is touched (exit 1);
// - -bake-time with nothing to watch is refused with the flag's message;
// - an alarm in ALARM at the safe point before the first batch stops the run there: the alarm's
//   line and Nomad's error list with its reason, nothing restarted, exit 1.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ServedCloudWatch, startFakeCloudWatch } from '../alarms/helpers/fake-cloudwatch';
import { OPERATOR_TOKEN, readmePolicyAcl } from '../fixtures/readme-policy';
import { type Harness, simpleJob, startHarness, waitAllRunning } from '../steps/helpers/harness';
import { runCli } from './helpers/run-cli';

const RESTART = /^\/v1\/client\/allocation\/[^/]+\/restart$/;
const REASON =
  'Threshold Crossed: 1 out of the last 1 datapoints [12.0] was greater than the threshold (5.0)';

let h: Harness;
let cloudwatch: ServedCloudWatch;
/** A home without ~/.aws, so only the variables below are the command's AWS settings. */
const HOME = mkdtempSync(join(tmpdir(), 'no-aws-'));

beforeAll(async () => {
  h = await startHarness(
    { jobs: [simpleJob('api', 'service', 2)], acl: readmePolicyAcl() },
    { token: OPERATOR_TOKEN },
  );
  await waitAllRunning(h, 'api', 2);
  cloudwatch = await startFakeCloudWatch();
});
afterAll(async () => {
  await h.close();
  await cloudwatch.close();
});

/** The command's environment: Nomad, and AWS settings without any file or instance metadata. */
function env(aws: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    HOME,
    NOMAD_ADDR: h.sim.address,
    NOMAD_TOKEN: OPERATOR_TOKEN,
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_REGION: 'us-east-1',
    AWS_ENDPOINT_URL_CLOUDWATCH: cloudwatch.endpoint.url,
    ...aws,
  };
}
const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'FAKE', AWS_SECRET_ACCESS_KEY: 'FAKE' };

const restarts = () => h.sim.control.requestLog().filter((r) => RESTART.test(r.path)).length;

describe('nomad-restart -stop-on-alarm', () => {
  it('refuses an alarm that does not exist before anything is touched, naming it', async () => {
    // Arrange
    cloudwatch.fake.set('api-5xx', 'OK', 'fine');
    const before = h.sim.control.requestLog().length;

    // Act
    const result = await runCli(
      ['-yes', '-stop-on-alarm', 'api-5xx', '-stop-on-alarm', 'api-typo', 'api'],
      env(CREDENTIALS),
    );

    // Assert
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'Alarm "api-typo" of -stop-on-alarm does not exist in region "us-east-1": check the name (or ARN) and the region (AWS_REGION)',
    );
    expect(result.stdout).toBe('');
    expect(h.sim.control.requestLog().length).toBe(before);
  });

  it('refuses the flag without AWS credentials before anything is touched', async () => {
    // Arrange
    const before = h.sim.control.requestLog().length;

    // Act
    const result = await runCli(['-yes', '-stop-on-alarm', 'api-5xx', 'api'], env());

    // Assert
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'Error reading the CloudWatch alarms of -stop-on-alarm: no AWS credentials were found (set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY); the identity needs cloudwatch:DescribeAlarms only',
    );
    expect(h.sim.control.requestLog().length).toBe(before);
  });

  it('refuses -bake-time with nothing to watch', async () => {
    // Act
    const result = await runCli(['-yes', '-bake-time', '2m', 'api'], env(CREDENTIALS));

    // Assert
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'The -bake-time option can only be used with -stop-on-alarm or -wait-healthy: there is nothing to watch',
    );
  });

  it('stops before the first batch when an alarm is in ALARM, with its reason in the errors', async () => {
    // Arrange
    cloudwatch.fake.set('api-5xx', 'ALARM', REASON, Date.UTC(2026, 11, 7, 14, 0, 0));
    const before = restarts();

    // Act
    const result = await runCli(['-yes', '-stop-on-alarm', 'api-5xx', 'api'], env(CREDENTIALS));

    // Assert
    expect(result.code).toBe(1);
    expect(restarts()).toBe(before);
    expect(result.stdout).toMatch(
      /==> .*: Alarm "api-5xx" is in ALARM: Threshold Crossed: .*; no more allocations will be restarted/,
    );
    expect(result.stderr).toContain(`Alarm "api-5xx" is in ALARM since 2026-12-07T14:00:00.000Z: ${REASON}`);
  });
});
