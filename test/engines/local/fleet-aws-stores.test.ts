/**
 * Scenario: the same fleet as fleet-engine.test.ts, its handlers on the AWS stores (the plan store
 * on s3rver, the lock table on dynalite) with every call a function makes checked against that
 * function's role in the synthesized template, and the Distributed Map reading its item list and
 * writing its results through the same S3 bucket. (The Map's own S3 calls are the fleet state
 * machine role's, which the IAM check does not evaluate: test/iam/ checks that role's grants.)
 *
 * A second fleet runs on an agent holding the README's fleet policy with the handlers given no
 * Nomad settings: each resolves them from its function's environment in the template, "Plan
 * fleet", "Summarize fleet" (each writes the fleet's record in the run history) and each job's
 * handlers reading the token through the real Secrets Manager client (served on 127.0.0.1), each
 * read checked against its role.
 */
import { S3Client } from '@aws-sdk/client-s3';
import { type LocalFleetRequest, runFleetLocally } from '../../../lib/engines/local/fleet-engine';
import { type LocalDefinitions, loadLocalDefinition } from '../../../lib/engines/local/local-definition';
import type { FleetProgressEvent } from '../../../lib/fleet/events';
import { fleetKeys } from '../../../lib/fleet/items';
import { fleetControlKey } from '../../../lib/stores/fleet-control-key';
import { S3PlanStore } from '../../../lib/stores/s3-plan-store';
import { FLEET_HANDLER_IDS, FleetTaskStates } from '../../../lib/workflow/fleet-state-names';
import { FlowStates, TASK_STATE_HANDLERS } from '../../../lib/workflow/state-names';
import {
  MANAGEMENT_TOKEN,
  OPERATOR_TOKEN,
  readmeFleetPolicyToken,
  readmePolicyAcl,
} from '../../fixtures/readme-policy';
import { useEmulatedAws } from '../../iam/helpers/emulated-aws';
import { secretsManagerServing, startFakeJsonServices } from '../../iam/helpers/fake-json-services';
import { asFunction } from '../../iam/helpers/invoking-function';
import { withEnvironment } from '../../iam/helpers/with-environment';
import { harnessPerTest, simpleJob, waitAllRunning } from '../../steps/helpers/harness';

const aws = useEmulatedAws();
const harness = harnessPerTest();
const JOBS = ['api', 'cache', 'db'];

/** The handler id of each Task state, the fleet's and the one-job's: the function whose role a call is checked against. */
const HANDLER_OF: Readonly<Record<string, string>> = {
  ...TASK_STATE_HANDLERS,
  [FleetTaskStates.planFleet]: FLEET_HANDLER_IDS[0],
  [FleetTaskStates.summarizeFleet]: FLEET_HANDLER_IDS[1],
};

let stateMachines: LocalDefinitions;
beforeAll(async () => {
  stateMachines = (await loadLocalDefinition()).stateMachine;
});

describe('runFleetLocally on the AWS stores with IAM enforced', () => {
  it('restarts the fleet with the item list and the results in S3, every function call allowed by its role', async () => {
    // Arrange
    const h = await harness.start(
      { jobs: JOBS.map((id) => simpleJob(id, 'service', 2)), acl: readmePolicyAcl(['default']) },
      { token: OPERATOR_TOKEN },
    );
    for (const id of JOBS) await waitAllRunning(h, id, 2);
    const events: FleetProgressEvent[] = [];
    const s3 = new S3Client({});
    const request: LocalFleetRequest = {
      input: { namespace: 'default', filter: 'Type == "service"', yes: true, maxJobs: 2 },
      executionName: 'fleet-on-aws',
      stateMachines,
      objectStore: new S3PlanStore(s3, aws.bucket),
      nomad: { address: h.sim.address, token: OPERATOR_TOKEN },
      emit: (event) => events.push(event),
      prompt: async () => ({ kind: 'read-error', text: 'EOF' }),
      interceptInvocation: (stateName, invoke) => asFunction(HANDLER_OF[stateName] ?? stateName, invoke),
      waitTimeOverrides: { [FlowStates.waitBeforeNextBatch]: 0 },
      now: h.now,
      sleep: h.sleep,
    };
    const from = aws.ledger.calls.length;

    // Act
    const result = await (await runFleetLocally(request)).result;
    s3.destroy();

    // Assert
    expect(result.status).toBe('SUCCEEDED');
    expect(events.at(-1)).toMatchObject({
      type: 'fleet-finished',
      restarted: 3,
      failed: 0,
      withErrors: false,
    });
    const calls = aws.ledger.calls.slice(from);
    const byFunction = (fn: string) =>
      new Set(calls.filter((c) => c.functionName === fn).map((c) => c.request.action));
    // Plan fleet also takes the fleet's run-control item (a refresh first, then the take), and
    // Summarize fleet gives it back.
    expect(byFunction('plan-fleet')).toEqual(
      new Set(['s3:PutObject', 'dynamodb:UpdateItem', 'dynamodb:PutItem']),
    );
    expect([...byFunction('summarize-fleet')]).toEqual(
      expect.arrayContaining(['s3:GetObject', 's3:PutObject', 'dynamodb:DeleteItem']),
    );
    expect(await aws.lockHolder(fleetControlKey('fleet-on-aws'))).toBeUndefined();
    // Each job ran as a one-job run does on AWS: its lock taken in the table and released.
    expect(byFunction('lock-job').size).toBeGreaterThan(0);
    expect(await aws.lockHolder({ namespace: 'default', jobId: 'api' })).toBeUndefined();
    const reader = new S3Client({});
    try {
      const report = await new S3PlanStore(reader, aws.bucket).get(fleetKeys('fleet-on-aws').report);
      expect(report).toMatchObject({ outcome: 'finished' });
    } finally {
      reader.destroy();
    }
  });

  it("reads the Nomad token from Secrets Manager in Plan fleet and each job's functions, on the secret's ARN", async () => {
    // Arrange: the agent answers only the README fleet policy's token, which only the secret holds.
    const h = await harness.start(
      {
        jobs: JOBS.map((id) => simpleJob(id, 'service', 1)),
        acl: {
          enabled: true,
          tokens: [readmeFleetPolicyToken(['default']), { secret: MANAGEMENT_TOKEN, management: true }],
        },
      },
      { token: OPERATOR_TOKEN },
    );
    for (const id of JOBS) await waitAllRunning(h, id, 1);
    const tokenArn = aws.check.functionEnvironment('plan-fleet')['NOMAD_TOKEN_SECRET_ARN'];
    if (tokenArn === undefined) throw new Error('the template gives Plan fleet no NOMAD_TOKEN_SECRET_ARN');
    const secrets = await startFakeJsonServices(secretsManagerServing({ [tokenArn]: OPERATOR_TOKEN }));
    const env = {
      NOMAD_ADDR: h.sim.address,
      NOMAD_TOKEN_SECRET_ARN: tokenArn,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.url,
    };
    const events: FleetProgressEvent[] = [];
    const s3 = new S3Client({});
    const from = aws.ledger.calls.length;

    // Act: no `nomad` in the request: every handler resolves Nomad from its environment.
    const result = await withEnvironment(
      env,
      async () =>
        (
          await runFleetLocally({
            input: { namespace: 'default', yes: true, maxJobs: 1 },
            executionName: 'fleet-token-from-secret',
            stateMachines,
            objectStore: new S3PlanStore(s3, aws.bucket),
            emit: (event) => events.push(event),
            prompt: async () => ({ kind: 'read-error', text: 'EOF' }),
            interceptInvocation: (stateName, invoke) =>
              asFunction(HANDLER_OF[stateName] ?? stateName, invoke),
            waitTimeOverrides: { [FlowStates.waitBeforeNextBatch]: 0 },
            now: h.now,
            sleep: h.sleep,
          })
        ).result,
    ).finally(() => {
      s3.destroy();
      return secrets.close();
    });

    // Assert: the run needed the token (the agent refuses anything else); every read was of the
    // secret's ARN, by a function whose role allows it (a denial fails the run and the ledger).
    expect(result.status).toBe('SUCCEEDED');
    expect(events.at(-1)).toMatchObject({ type: 'fleet-finished', restarted: 3, failed: 0 });
    expect(aws.ledger.denied()).toEqual([]);
    const reads = aws.ledger.calls
      .slice(from)
      .filter((c) => c.request.action === 'secretsmanager:GetSecretValue');
    expect(reads.map((c) => c.request.resource)).toEqual(reads.map(() => tokenArn));
    expect([...new Set(reads.map((c) => c.functionName))]).toEqual(
      expect.arrayContaining(['plan-fleet', 'summarize-fleet', 'plan', 'lock-job', 'restart-batch']),
    );
    expect(secrets.called).toHaveLength(reads.length);
  });
});
