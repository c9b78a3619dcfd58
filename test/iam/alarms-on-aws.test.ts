/**
 * Scenario: a gated run with -stop-on-alarm and -bake-time, with the handlers on the AWS stores
 * (s3rver, dynalite) and their own CloudWatch client (made from the environment as on Lambda,
 * pointed at the fake CloudWatch on 127.0.0.1 by AWS_ENDPOINT_URL_CLOUDWATCH): every call checked
 * against the calling function's role in the synthesized template. "Validate input" (each alarm
 * exists), the guard before each batch
 * (check-deployments), the health wait (await-health) and the bake's checks (the decide function)
 * each read the alarms, and AWS would allow each read.
 */
import { type ServedCloudWatch, startFakeCloudWatch } from '../alarms/helpers/fake-cloudwatch';
import { runWorkflow } from '../engines/local/helpers/workflow-harness';
import { restartOptions } from '../fixtures/restart-options';
import { checkedJob } from '../steps/health/helpers/health-fixtures';
import { harnessPerTest, waitAllRunning } from '../steps/helpers/harness';
import { useEmulatedAws } from './helpers/emulated-aws';

const aws = useEmulatedAws();
const harness = harnessPerTest();
let cloudwatch: ServedCloudWatch | undefined;

beforeAll(async () => {
  cloudwatch = await startFakeCloudWatch();
  process.env['AWS_ENDPOINT_URL_CLOUDWATCH'] = cloudwatch.endpoint.url;
});
afterAll(async () => {
  delete process.env['AWS_ENDPOINT_URL_CLOUDWATCH'];
  await cloudwatch?.close();
});

describe('-stop-on-alarm on the AWS stores with IAM enforced', () => {
  it('reads the alarms from the guard, the health wait and the bake, each allowed by its role', async () => {
    // Arrange
    const job = checkedJob('api', 2);
    const h = await harness.startRunning(job);
    await waitAllRunning(h, job.ID, 2);
    cloudwatch?.fake.set('api-5xx', 'OK', 'no datapoint above 5.0');
    const from = aws.ledger.calls.length;
    const options = restartOptions('api', {
      waitHealthy: { minHealthyTimeNs: 2e9, healthyDeadlineNs: 600e9 },
      stopOnAlarms: ['api-5xx'],
      bakeTimeMs: 60_000,
    });

    // Act
    const run = await runWorkflow(h, options, { now: h.now, sleep: h.sleep, bakeWaitMs: 300 });

    // Assert
    expect({ exit: run.exitCode, errors: run.errors, denied: aws.ledger.denialReport(from) }).toEqual({
      exit: 0,
      errors: [],
      denied: [],
    });
    const readers = new Set(
      aws.ledger.calls
        .slice(from)
        .filter((c) => c.request.action === 'cloudwatch:DescribeAlarms' && c.decision.allowed)
        .map((c) => c.functionName),
    );
    expect([...readers].sort()).toEqual(['await-health', 'check-deployments', 'decide', 'validate-input']);
    expect(aws.ledger.denialReport(from)).toEqual([]);
  });
});
