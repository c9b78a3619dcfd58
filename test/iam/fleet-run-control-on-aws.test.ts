/**
 * Scenario: a fleet run steered through the approval endpoint on the AWS stores (dynalite) with
 * every SDK call checked against the endpoint's role in the synthesized template. The fleet run
 * holds its run-control item (Plan fleet took it); U1 presses Pause, then Stop, naming the fleet's
 * run ID: the endpoint finds the fleet's item through the owner index, records each request on it
 * (where each of the fleet's jobs reads it at its safe point), and for the stop lists the one-job
 * state machine's pending questions (the environment the template gives it names that machine)
 * for the fleet's parked jobs. After Summarize fleet gave the item back, a press is refused as
 * for a run that has ended, and nothing is written. A call AWS would deny fails the test.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { APPROVAL_ROUTES } from '../../lib/approvals/endpoint';
import { APPROVAL_ENV } from '../../lib/approvals/settings';
import { CONTROL_BLOCK_PREFIX } from '../../lib/approvals/slack-blocks';
import { holdFleetControl, releaseFleetControl } from '../../lib/steps/fleet/fleet-control-item';
import { DynamoDbJobLock } from '../../lib/stores/dynamodb-job-lock';
import { fleetControlKey } from '../../lib/stores/fleet-control-key';
import { SIGNING_SECRET, slackBody, slackHeaders } from '../approvals/helpers/approvals';
import { type FakeSlack, startFakeSlack } from '../approvals/helpers/fake-slack';
import { functionUrlEvent } from '../approvals/helpers/local-loop';
import { lambdaContext } from '../lambdas/helpers/fixtures';
import { useEmulatedAws } from './helpers/emulated-aws';
import { secretsManagerServing, startFakeJsonServices } from './helpers/fake-json-services';
import { asFunction } from './helpers/iam-check';
import { withEnvironment } from './helpers/with-environment';

process.env['POWERTOOLS_LOG_LEVEL'] = 'SILENT';

const aws = useEmulatedAws();
const BOT_TOKEN = 'xoxb-bot-token';
const FLEET_RUN = 'weekly-payments';

type Handler = (event: unknown, context: unknown) => Promise<unknown>;
type HttpResponse = { statusCode: number; body: string };
let endpoint: Handler;
let slack: FakeSlack;

beforeAll(async () => {
  endpoint = (await import('../../lambdas/approval-endpoint')).handler as unknown as Handler;
  slack = await startFakeSlack(BOT_TOKEN);
});
afterAll(async () => {
  await slack.close();
});

/** The endpoint's environment as the template gives its function, Slack's API on 127.0.0.1. */
function endpointEnvironment(): Record<string, string> {
  // NODE_OPTIONS configures the Lambda runtime's Node, not this process.
  const { NODE_OPTIONS: _, ...env } = aws.check.functionEnvironment('approval-endpoint');
  return { ...env, [APPROVAL_ENV.slackApiUrl]: slack.apiUrl };
}

/** The lock table, written outside any function (as Plan fleet and Summarize fleet left it). */
async function lockTable(): Promise<{ lock: DynamoDbJobLock; close: () => void }> {
  const client = new DynamoDBClient({});
  return { lock: new DynamoDbJobLock(client, aws.lockTable), close: () => client.destroy() };
}

/** U1 presses the run's `verb` button, signed now, handed to the endpoint as its Function URL would. */
async function press(
  env: Record<string, string>,
  verb: 'pause' | 'stop',
  trigger = 'trigger-1',
): Promise<HttpResponse> {
  const body = slackBody({
    type: 'block_actions',
    user: { id: 'U1', username: 'alice' },
    team: { id: 'T1' },
    channel: { id: env[APPROVAL_ENV.slackChannelId] ?? '' },
    trigger_id: trigger,
    actions: [{ action_id: `control:${verb}`, block_id: `${CONTROL_BLOCK_PREFIX}${FLEET_RUN}`, value: verb }],
  });
  const headers = slackHeaders(body, Math.floor(Date.now() / 1000));
  return (await withEnvironment(env, () =>
    asFunction('approval-endpoint', () =>
      endpoint(functionUrlEvent(APPROVAL_ROUTES.slack, headers, body), lambdaContext()),
    ),
  )) as HttpResponse;
}

describe('fleet run control through the endpoint, on the AWS stores with IAM enforced', () => {
  it("records a Slack Pause, then a Stop, on the fleet's item, and refuses one after the fleet ended", async () => {
    // Arrange
    const env = endpointEnvironment();
    const services = await startFakeJsonServices(
      secretsManagerServing({
        [env[APPROVAL_ENV.slackBotTokenSecretArn] ?? '']: BOT_TOKEN,
        [env[APPROVAL_ENV.slackSigningSecretArn] ?? '']: SIGNING_SECRET,
        [env[APPROVAL_ENV.webhookSecretArn] ?? '']: JSON.stringify({ k1: 'webhook-key-k1' }),
      }),
    );
    Object.assign(env, { AWS_ENDPOINT_URL_SECRETS_MANAGER: services.url });
    const { lock, close } = await lockTable();
    await holdFleetControl(lock, FLEET_RUN);
    const key = fleetControlKey(FLEET_RUN);
    const from = aws.ledger.calls.length;

    // Act
    let paused: Awaited<ReturnType<DynamoDbJobLock['controlRequest']>>;
    let stopped: typeof paused;
    const responses: HttpResponse[] = [];
    try {
      responses.push(await press(env, 'pause'));
      paused = await lock.controlRequest(key, FLEET_RUN);
      responses.push(await press(env, 'stop'));
      stopped = await lock.controlRequest(key, FLEET_RUN);
      await releaseFleetControl(lock, FLEET_RUN);
      // Another press (another trigger): a copy of the first would be refused as a replay.
      responses.push(await press(env, 'pause', 'trigger-2'));
    } finally {
      await services.close();
      close();
    }

    // Assert
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(paused).toMatchObject({ verb: 'pause', requestedBy: 'U1', via: 'slack' });
    expect(stopped).toMatchObject({ verb: 'stop', requestedBy: 'U1', via: 'slack' });
    expect(slack.calls.filter((c) => c.method === 'chat.postEphemeral').map((c) => c.args['text'])).toEqual([
      `Pause of fleet run "${FLEET_RUN}" requested by U1 (Slack): each of its jobs pauses before its next batch.`,
      `Stop of fleet run "${FLEET_RUN}" requested by U1 (Slack): each of its jobs stops before its next batch.`,
      `No running restart has run id "${FLEET_RUN}": it has ended or never existed`,
    ]);
    const endpointCalls = aws.ledger.calls.slice(from).filter((c) => c.functionName === 'approval-endpoint');
    // The stop looked for the fleet's parked jobs among the one-job state machine's pending questions.
    expect(endpointCalls.map((c) => c.request.resource)).toEqual(
      expect.arrayContaining([expect.stringMatching(/\/index\/pending-index$/)]),
    );
    expect(aws.ledger.denied()).toEqual([]);
  });
});
