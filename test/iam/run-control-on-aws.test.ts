/**
 * Scenario: run control through the approval endpoint on the AWS stores (dynalite) with every SDK
 * call checked against the endpoint's role in the synthesized template. A run of the stack's state
 * machine holds job "web" in the lock table; U1 presses the run's Pause button in Slack (a signed
 * interactivity request handed to the real endpoint handler, with the environment the template
 * gives its function): the endpoint finds the run's jobs through the lock table's owner index,
 * looks for a parked pause question among the pending ones, and records the pause on the lock
 * item. A webhook-less deployment's Slack is the only channel that may steer here (the full stack
 * names no webhook answer key). Then U1's Stop press replaces it. A call AWS would deny fails the
 * test with the evaluator's explanation (emulated-aws.ts).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { APPROVAL_ROUTES } from '../../lib/approvals/endpoint';
import { APPROVAL_ENV } from '../../lib/approvals/settings';
import { CONTROL_BLOCK_PREFIX } from '../../lib/approvals/slack-blocks';
import { DynamoDbJobLock } from '../../lib/stores/dynamodb-job-lock';
import { SIGNING_SECRET, slackBody, slackHeaders } from '../approvals/helpers/approvals';
import { type FakeSlack, startFakeSlack } from '../approvals/helpers/fake-slack';
import { functionUrlEvent } from '../approvals/helpers/local-loop';
import { lambdaContext } from '../lambdas/helpers/fixtures';
import { useEmulatedAws } from './helpers/emulated-aws';
import { secretsManagerServing, startFakeJsonServices } from './helpers/fake-json-services';
import { FULL_STACK_NAME } from './helpers/full-stack-template';
import { asFunction } from './helpers/iam-check';
import { DEPLOYED } from './helpers/template-iam';
import { withEnvironment } from './helpers/with-environment';

process.env['POWERTOOLS_LOG_LEVEL'] = 'SILENT';

const aws = useEmulatedAws();
const BOT_TOKEN = 'xoxb-bot-token';
const RUN = `arn:aws:states:${DEPLOYED.region}:${DEPLOYED.account}:execution:${FULL_STACK_NAME}-Restart:run-1`;
const KEY = { namespace: 'default', jobId: 'web' };

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

/** The lock table as the run's Lock job left it (written outside any function). */
async function lockTable(): Promise<{ lock: DynamoDbJobLock; close: () => void }> {
  const client = new DynamoDBClient({});
  return { lock: new DynamoDbJobLock(client, aws.lockTable), close: () => client.destroy() };
}

/** U1 presses the run's `verb` button, signed now, handed to the endpoint as its Function URL would. */
async function press(env: Record<string, string>, verb: 'pause' | 'stop'): Promise<HttpResponse> {
  const body = slackBody({
    type: 'block_actions',
    user: { id: 'U1', username: 'alice' },
    team: { id: 'T1' },
    channel: { id: env[APPROVAL_ENV.slackChannelId] ?? '' },
    trigger_id: 'trigger-1',
    actions: [{ action_id: `control:${verb}`, block_id: `${CONTROL_BLOCK_PREFIX}${RUN}`, value: verb }],
  });
  const headers = slackHeaders(body, Math.floor(Date.now() / 1000));
  return (await withEnvironment(env, () =>
    asFunction('approval-endpoint', () =>
      endpoint(functionUrlEvent(APPROVAL_ROUTES.slack, headers, body), lambdaContext()),
    ),
  )) as HttpResponse;
}

describe('run control through the endpoint, on the AWS stores with IAM enforced', () => {
  it('records a Slack Pause, then a Stop, on the run lock item', async () => {
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
    await lock.acquire(KEY, { owner: RUN, ttlSeconds: 600, execution: RUN });
    const from = aws.ledger.calls.length;

    // Act
    let paused: Awaited<ReturnType<DynamoDbJobLock['controlRequest']>>;
    let stopped: typeof paused;
    const responses: HttpResponse[] = [];
    try {
      responses.push(await press(env, 'pause'));
      paused = await lock.controlRequest(KEY, RUN);
      responses.push(await press(env, 'stop'));
      stopped = await lock.controlRequest(KEY, RUN);
    } finally {
      await services.close();
      close();
    }

    // Assert
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(paused).toMatchObject({ verb: 'pause', requestedBy: 'U1', via: 'slack' });
    expect(stopped).toMatchObject({ verb: 'stop', requestedBy: 'U1', via: 'slack' });
    expect(slack.calls.filter((c) => c.method === 'chat.postEphemeral').map((c) => c.args['text'])).toEqual([
      'Pause of job "web" requested by U1 (Slack): the run pauses before its next batch.',
      'Stop of job "web" requested by U1 (Slack): the run stops before its next batch.',
    ]);
    const used = new Set(
      aws.ledger.calls
        .slice(from)
        .filter((c) => c.functionName === 'approval-endpoint')
        .map((c) => c.request.action),
    );
    expect([...used].sort()).toEqual(
      expect.arrayContaining(['dynamodb:Query', 'dynamodb:UpdateItem', 'dynamodb:PutItem']),
    );
  });
});
