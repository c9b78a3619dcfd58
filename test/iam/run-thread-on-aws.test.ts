/**
 * Scenario: a run's live chat thread on the AWS stores (s3rver, dynalite) with every SDK call
 * checked against the calling function's role in the synthesized template. A 2-batch run's steps
 * record its progress in the approvals table as the template switches them on (`RUN_THREAD=on` on
 * Lock job, Decide and Await health); the real question notifier, given the thread item's stream
 * record, reads it and posts the run's live message to Slack (a fake Web API on 127.0.0.1, its
 * secrets served by a fake Secrets Manager); the real run-end notifier, given the execution's
 * status change, reads the thread, posts the end in it (also to the channel) and closes the live
 * message. A call AWS would deny fails the test with the evaluator's explanation.
 */
import { APPROVAL_ENV } from '../../lib/approvals/settings';
import { toRestartInput } from '../../lib/restart/input';
import { runThreadKey } from '../../lib/stores/run-thread-store';
import { type FakeSlack, startFakeSlack } from '../approvals/helpers/fake-slack';
import { type FakeWebhook, startFakeWebhook } from '../approvals/helpers/fake-webhook';
import { runWorkflow } from '../engines/local/helpers/workflow-harness';
import { restartOptions } from '../fixtures/restart-options';
import { lambdaContext } from '../lambdas/helpers/fixtures';
import { endedExecutionEvent } from '../lambdas/helpers/status-change';
import { harnessPerTest, simpleJob } from '../steps/helpers/harness';
import { useEmulatedAws } from './helpers/emulated-aws';
import { secretsManagerServing, startFakeJsonServices } from './helpers/fake-json-services';
import { type FakeSns, startFakeSns } from './helpers/fake-sns';
import { asFunction } from './helpers/iam-check';
import { withEnvironment } from './helpers/with-environment';

process.env['POWERTOOLS_LOG_LEVEL'] = 'SILENT';

const aws = useEmulatedAws();
const harness = harnessPerTest();
const BOT_TOKEN = 'xoxb-bot-token';
type Handler = (event: unknown, context: unknown) => Promise<unknown>;
let notifier: Handler;
let runEnded: Handler;
let slack: FakeSlack;
let webhook: FakeWebhook;
let sns: FakeSns;

beforeAll(async () => {
  [slack, webhook, sns] = await Promise.all([startFakeSlack(BOT_TOKEN), startFakeWebhook(), startFakeSns()]);
  notifier = (await import('../../lambdas/approval-notifier')).handler as unknown as Handler;
  runEnded = (await import('../../lambdas/notify-run-ended')).handler as unknown as Handler;
});
afterAll(async () => {
  await Promise.all([slack.close(), webhook.close(), sns.close()]);
});

/** `fn`'s environment as the template gives it, its chat endpoints on 127.0.0.1. */
function environmentOf(fn: string, fakes: string): Record<string, string> {
  // NODE_OPTIONS configures the Lambda runtime's Node, not this process.
  const { NODE_OPTIONS: _, ...env } = aws.check.functionEnvironment(fn);
  return {
    ...env,
    [APPROVAL_ENV.slackApiUrl]: slack.apiUrl,
    [APPROVAL_ENV.webhookUrl]: webhook.url,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: fakes,
    AWS_ENDPOINT_URL_SNS: sns.url,
  };
}

describe('a run live thread, on the AWS stores with IAM enforced', () => {
  it('records progress from the steps, posts the live message, and ends in the thread', async () => {
    // Arrange: the steps record progress as the template switches them on.
    expect(aws.check.functionEnvironment('decide')[APPROVAL_ENV.runThread]).toBe('on');
    const h = await harness.startRunning(simpleJob('web', 'service', 2));
    const env = environmentOf('approval-notifier', '');
    const services = await startFakeJsonServices(
      secretsManagerServing({
        [env[APPROVAL_ENV.slackBotTokenSecretArn] ?? '']: BOT_TOKEN,
        [env[APPROVAL_ENV.webhookSecretArn] ?? '']: JSON.stringify({ k1: 'webhook-key-k1' }),
      }),
    );
    const options = restartOptions('web', { yes: true });
    const startDate = Date.now();
    process.env[APPROVAL_ENV.runThread] = 'on';
    const from = aws.ledger.calls.length;

    // Act
    let runId = '';
    try {
      const run = await runWorkflow(h, options);
      const [execution] = run.result.executions;
      if (execution === undefined) throw new Error('the run had no execution');
      runId = execution.executionArn;
      await withEnvironment(environmentOf('approval-notifier', services.url), () =>
        asFunction('approval-notifier', () =>
          notifier(
            {
              Records: [
                { eventName: 'MODIFY', dynamodb: { Keys: { approvalId: { S: runThreadKey(runId) } } } },
              ],
            },
            lambdaContext(),
          ),
        ),
      );
      await withEnvironment(environmentOf('notify-run-ended', services.url), () =>
        asFunction('notify-run-ended', () =>
          runEnded(
            endedExecutionEvent(execution, {
              startDate,
              input: toRestartInput(options),
              executionArn: runId,
            }),
            lambdaContext(),
          ),
        ),
      );
    } finally {
      delete process.env[APPROVAL_ENV.runThread];
      await services.close();
    }

    // Assert: the live message, then the end in its thread, then its last edit.
    const posts = slack.calls.filter((c) => c.method === 'chat.postMessage');
    expect(posts).toHaveLength(2);
    expect(String(posts[0]?.args['text'])).toContain('restart of job "web" running');
    expect(posts[1]?.args).toMatchObject({
      thread_ts: posts[0]?.args['ts'] ?? expect.any(String),
      reply_broadcast: 'true',
    });
    expect(slack.calls.filter((c) => c.method === 'chat.update')).toHaveLength(1);
    const used = (fn: string) =>
      new Set(
        aws.ledger.calls
          .slice(from)
          .filter((c) => c.functionName === fn && c.request.resource.includes(aws.approvalsTable))
          .map((c) => c.request.action),
      );
    expect([...used('lock-job')]).toEqual(['dynamodb:UpdateItem']);
    expect([...used('decide')]).toEqual(['dynamodb:UpdateItem']);
    expect([...used('approval-notifier')].sort()).toEqual(['dynamodb:GetItem', 'dynamodb:UpdateItem']);
    expect([...used('notify-run-ended')].sort()).toEqual(['dynamodb:GetItem', 'dynamodb:UpdateItem']);
  });
});
