/**
 * Scenario: an input whose `stopOnAlarms` names an alarm that does not exist, started as the
 * console, a schedule or `-engine=aws` start it (no terminal check before), with the handlers on
 * the AWS stores and their own CloudWatch client (made from the environment as on Lambda, pointed
 * at the fake CloudWatch on 127.0.0.1), every call checked against the calling function's role in
 * the synthesized template:
 * - a one-job run is refused by "Validate input", naming the alarm: no Nomad request, no lock;
 * - a fleet is refused by "Plan fleet" the same way: no Nomad request, no item list, no job started,
 *   no run-control item.
 * Each refusal's one DescribeAlarms read is allowed by its function's role.
 */
import { S3Client } from '@aws-sdk/client-s3';
import { runFleetLocally } from '../../lib/engines/local/fleet-engine';
import { loadLocalDefinition } from '../../lib/engines/local/local-definition';
import type { FleetProgressEvent } from '../../lib/fleet/events';
import { fleetControlKey } from '../../lib/stores/fleet-control-key';
import { S3PlanStore } from '../../lib/stores/s3-plan-store';
import { FLEET_HANDLER_IDS, FleetTaskStates } from '../../lib/workflow/fleet-state-names';
import { TASK_STATE_HANDLERS, TaskStates } from '../../lib/workflow/state-names';
import { type ServedCloudWatch, startFakeCloudWatch } from '../alarms/helpers/fake-cloudwatch';
import { runWorkflow } from '../engines/local/helpers/workflow-harness';
import { OPERATOR_TOKEN, readmePolicyAcl } from '../fixtures/readme-policy';
import { restartOptions } from '../fixtures/restart-options';
import { harnessPerTest, simpleJob, waitAllRunning } from '../steps/helpers/harness';
import { useEmulatedAws } from './helpers/emulated-aws';
import { asFunction } from './helpers/invoking-function';

const aws = useEmulatedAws();
const harness = harnessPerTest();
let cloudwatch: ServedCloudWatch | undefined;
const MISSING = /^Alarm "api-typo" of -stop-on-alarm does not exist/;

/** The handler id of each Task state: the function whose role a call is checked against. */
const HANDLER_OF: Readonly<Record<string, string>> = {
  ...TASK_STATE_HANDLERS,
  [FleetTaskStates.planFleet]: FLEET_HANDLER_IDS[0],
  [FleetTaskStates.summarizeFleet]: FLEET_HANDLER_IDS[1],
};

beforeAll(async () => {
  cloudwatch = await startFakeCloudWatch();
  process.env['AWS_ENDPOINT_URL_CLOUDWATCH'] = cloudwatch.endpoint.url;
});
afterAll(async () => {
  delete process.env['AWS_ENDPOINT_URL_CLOUDWATCH'];
  await cloudwatch?.close();
});

/** The calls made since `from`, as `function action allowed|denied`. */
function callsSince(from: number): string[] {
  return aws.ledger.calls
    .slice(from)
    .map((c) => `${c.functionName} ${c.request.action} ${c.decision.allowed ? 'allowed' : 'denied'}`);
}

describe('an alarm that does not exist, on the AWS stores with IAM enforced', () => {
  it('is refused by "Validate input" with one allowed read, before Nomad is called or the lock taken', async () => {
    // Arrange
    const h = await harness.start({ jobs: [simpleJob('api', 'service', 1)], acl: readmePolicyAcl() });
    await waitAllRunning(h, 'api', 1);
    cloudwatch?.fake.set('api-5xx', 'OK', 'no datapoint above 5.0');
    h.sim.control.resetCounters();
    const from = aws.ledger.calls.length;
    const options = restartOptions('api', { stopOnAlarms: ['api-5xx', 'api-typo'] });

    // Act
    const run = await runWorkflow(h, options, {
      token: OPERATOR_TOKEN,
      now: h.now,
      sleep: h.sleep,
      interceptInvocation: (state, invoke) => asFunction(HANDLER_OF[state] ?? state, invoke),
    });

    // Assert
    expect(run.result).toMatchObject({ status: 'FAILED', error: 'InvalidInput' });
    expect(run.result.cause).toMatch(MISSING);
    expect(callsSince(from)).toEqual(['validate-input cloudwatch:DescribeAlarms allowed']);
    expect(h.sim.control.requestLog()).toEqual([]);
    expect(run.entered).not.toContain(TaskStates.lockJob);
    expect(await aws.lockHolder({ namespace: 'default', jobId: 'api' })).toBeUndefined();
  });

  it('is refused by "Plan fleet" with one allowed read, before Nomad is called or any job starts', async () => {
    // Arrange
    const h = await harness.start(
      { jobs: ['api', 'cache'].map((id) => simpleJob(id, 'service', 1)), acl: readmePolicyAcl(['default']) },
      { token: OPERATOR_TOKEN },
    );
    for (const id of ['api', 'cache']) await waitAllRunning(h, id, 1);
    h.sim.control.resetCounters();
    const events: FleetProgressEvent[] = [];
    const s3 = new S3Client({});
    const from = aws.ledger.calls.length;

    // Act
    const result = await (
      await runFleetLocally({
        input: { namespace: 'default', yes: true, stopOnAlarms: ['api-typo'] },
        executionName: 'fleet-missing-alarm',
        stateMachines: (await loadLocalDefinition()).stateMachine,
        objectStore: new S3PlanStore(s3, aws.bucket),
        nomad: { address: h.sim.address, token: OPERATOR_TOKEN },
        emit: (event) => events.push(event),
        prompt: async () => ({ kind: 'read-error', text: 'EOF' }),
        interceptInvocation: (state, invoke) => asFunction(HANDLER_OF[state] ?? state, invoke),
        now: h.now,
        sleep: h.sleep,
      })
    ).result;
    s3.destroy();

    // Assert
    expect(result).toMatchObject({ status: 'FAILED', error: 'InvalidInput' });
    expect(result.cause).toMatch(MISSING);
    expect(callsSince(from)).toEqual(['plan-fleet cloudwatch:DescribeAlarms allowed']);
    expect(h.sim.control.requestLog()).toEqual([]);
    expect(events.filter((e) => e.type === 'fleet-planned')).toEqual([]);
    expect(await aws.lockHolder(fleetControlKey('fleet-missing-alarm'))).toBeUndefined();
  });
});
