/**
 * A run steered from chat, end to end without AWS: a local-engine run of the synthesized workflow
 * against the simulator (ACLs on, a token holding exactly the README's policy), its steps recording
 * progress as the template switches them on (`RUN_THREAD=on`), the real notifier posting the run's
 * live Slack thread to a fake Slack Web API and the webhook deliveries to a fake receiver, and the
 * real endpoint taking signed requests, its SendTaskSuccess completing the local engine's task
 * tokens (test/approvals/helpers/local-loop.ts).
 *
 * Scenarios: a 10-batch run paused from its live message's Pause button after its second batch
 * stops before the third with the attributed pause question in the thread, restarts nothing until
 * its Resume button is pressed, then finishes; one start message, its edits no closer than 30 s
 * (the first refused with a 429 and `Retry-After`), the question and the end in the thread, the
 * end also in the channel, the same start and end delivered to the webhook. A 3-batch run paused
 * from the signed webhook request and then stopped from it ends `canceled` with its lock released.
 */
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { jest } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import { APPROVAL_ROUTES } from '../../lib/approvals/endpoint';
import { APPROVAL_ENV } from '../../lib/approvals/settings';
import { CONTROL_BLOCK_PREFIX } from '../../lib/approvals/slack-blocks';
import { runRestartLocally } from '../../lib/engines/local/engine';
import type { ExecutionResult } from '../../lib/engines/local/types';
import type { ProgressEvent } from '../../lib/restart/events';
import { toRestartInput } from '../../lib/restart/input';
import type { RestartOptions } from '../../lib/restart/options';
import type { RunSummary } from '../../lib/restart/run-summary';
import { localStores } from '../../lib/stores/from-env';
import { FlowStates, TASK_STATE_HANDLERS, TaskStates } from '../../lib/workflow/state-names';
import { batchClock, SECOND_BATCHES_MS } from '../engines/local/helpers/batch-clock';
import { OPERATOR_TOKEN, readmePolicyAcl } from '../fixtures/readme-policy';
import { restartOptions } from '../fixtures/restart-options';
import { lambdaContext } from '../lambdas/helpers/fixtures';
import { endedExecutionEvent } from '../lambdas/helpers/status-change';
import { type Harness, harnessPerTest, simpleJob, waitAllRunning } from '../steps/helpers/harness';
import { slackBody, slackHeaders, WEBHOOK_KEYS, webhookHeaders } from './helpers/approvals';
import { SECRET_ARNS, serveChatSecrets, slackEnvironment } from './helpers/chat-secrets';
import { fakeSlackAroundAll, type SlackCall } from './helpers/fake-slack';
import { type FakeWebhook, startFakeWebhook } from './helpers/fake-webhook';
import { type LocalLoop, startLocalLoop } from './helpers/local-loop';

const BOT_TOKEN = 'xoxb-run-thread-local';
const RESTART = 'PUT /v1/client/allocation/:id/restart';
const KEY = { namespace: 'default', jobId: 'web' };
const secrets = mockClient(SecretsManagerClient);
const slack = fakeSlackAroundAll(BOT_TOKEN);
const harness = harnessPerTest();
let loop: LocalLoop;
let webhook: FakeWebhook;
type Handler = (event: unknown, context: unknown) => Promise<unknown>;
let runEnded: Handler;

beforeAll(async () => {
  webhook = await startFakeWebhook();
  Object.assign(process.env, {
    ...slackEnvironment(slack.apiUrl),
    [APPROVAL_ENV.webhookUrl]: webhook.url,
    [APPROVAL_ENV.webhookSecretArn]: SECRET_ARNS.webhook,
    [APPROVAL_ENV.webhookKeyId]: 'notify',
    [APPROVAL_ENV.webhookAnswerKeyIds]: 'ops',
    // As the template sets it on Lock job, Decide and Await health where chat keeps threads.
    [APPROVAL_ENV.runThread]: 'on',
    POWERTOOLS_LOG_LEVEL: 'SILENT',
  });
  serveChatSecrets(secrets, BOT_TOKEN);
  loop = await startLocalLoop();
  runEnded = (await import('../../lambdas/notify-run-ended')).handler as unknown as Handler;
});
afterAll(async () => {
  loop.close();
  secrets.restore();
  await webhook.close();
  for (const name of Object.values(APPROVAL_ENV)) delete process.env[name];
});
beforeEach(() => {
  slack.calls.length = 0;
  slack.limited.length = 0;
  webhook.requests.length = 0;
  loop.sfn.resetHistory();
  jest.spyOn(process.stdout, 'write').mockImplementation((() => true) as never);
});
afterEach(() => {
  jest.restoreAllMocks();
});

async function cluster(count: number): Promise<Harness> {
  const h = await harness.start(
    { jobs: [simpleJob('web', 'service', count)], acl: readmePolicyAcl() },
    { token: OPERATOR_TOKEN },
  );
  await waitAllRunning(h, 'web', count);
  return h;
}

/** Runs `options` (not -yes: the pause question is asked in chat) with `onDecide` after each Decide. */
async function run(
  h: Harness,
  options: RestartOptions,
  onDecide: (batch: number, runId: string) => Promise<void>,
): Promise<{ result: ExecutionResult; events: ProgressEvent[]; startedAt: number }> {
  const events: ProgressEvent[] = [];
  let decided = 0;
  const startedAt = Date.now();
  const local = await runRestartLocally({
    input: { ...toRestartInput({ ...options, yes: false }), startedBy: 'alice@laptop' },
    nomad: { address: h.sim.address, token: OPERATOR_TOKEN },
    emit: (event) => events.push(event),
    prompt: async () => {
      throw new Error('the question was asked at the terminal, not in chat');
    },
    taskTokenCallbacks: loop.callbacks,
    waitTimeOverrides: { [FlowStates.waitBeforeNextBatch]: 0 },
    retryIntervalOverrides: Object.fromEntries(Object.keys(TASK_STATE_HANDLERS).map((name) => [name, 0])),
    // Batches a second apart on the steps' clock: a request recorded at Decide reaches the next
    // safe point, which reads it at most once a second (lib/steps/lock/control-read.ts).
    ...batchClock(SECOND_BATCHES_MS, async (state, invoke) => {
      const result = await invoke();
      if (state === TaskStates.decide) {
        await loop.settled();
        const runId = (result as { run: { runId: string } }).run.runId;
        await onDecide(++decided, runId);
      }
      return result;
    }),
  });
  return { result: await local.result, events, startedAt };
}

/** A Slack interactivity request for U1 pressing a button, signed now, through the endpoint. */
function press(blockId: string, actionId: string, value: string) {
  const body = slackBody({
    type: 'block_actions',
    user: { id: 'U1', username: 'alice' },
    team: { id: 'T1' },
    channel: { id: 'C1' },
    trigger_id: 'trigger-1',
    actions: [{ action_id: actionId, block_id: blockId, value }],
  });
  return loop.answer(APPROVAL_ROUTES.slack, slackHeaders(body, Math.floor(Date.now() / 1000)), body);
}

/** bob's signed webhook request `verb` for `runId`, through the endpoint. */
function webhookRequest(runId: string, verb: string) {
  const body = JSON.stringify({ runId, request: verb, requestedBy: 'bob' });
  const headers = webhookHeaders(body, Math.floor(Date.now() / 1000), 'ops', WEBHOOK_KEYS.ops);
  return loop.answer(APPROVAL_ROUTES.webhookRequests, headers, body);
}

/** Resolves once a question is parked and posted; answers its id. */
async function parkedQuestionId(): Promise<string> {
  for (let i = 0; loop.callbacks.pending === 0; i++) {
    if (i > 2000) throw new Error('the run never parked its pause question');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await loop.settled();
  const [pending] = await localStores.approvals.listAllPending();
  if (pending === undefined) throw new Error('no pending question');
  return pending.approvalId;
}

/** Tells the run-end notifier the execution ended, as EventBridge would. */
async function tellEnd(result: ExecutionResult, startDate: number, options: RestartOptions): Promise<void> {
  const [execution] = result.executions;
  if (execution === undefined) throw new Error('the run had no execution');
  await runEnded(
    endedExecutionEvent(execution, { startDate, input: toRestartInput(options) }),
    lambdaContext(),
  );
}

type Block = {
  type: string;
  block_id?: string;
  elements?: { action_id: string; value: string; text: { text: string } }[];
};
const actionsOf = (call: SlackCall | undefined) =>
  ((call?.args['blocks'] ?? []) as Block[]).filter((b) => b.type === 'actions');
const text = (call: SlackCall | undefined) => String(call?.args['text'] ?? '');
const posts = () => slack.calls.filter((c) => c.method === 'chat.postMessage');

describe('a run steered from its live chat thread', () => {
  it('pauses a 10-batch run from the Slack Pause button before its third batch and resumes it from the thread', async () => {
    // Arrange
    const h = await cluster(10);
    const restarts = () => h.sim.control.counters()[RESTART] ?? 0;
    const seen: { atPause?: number; atQuestion?: number; beforeResume?: number } = {};
    let pressedPause: { statusCode: number } | undefined;
    let pressedResume: { statusCode: number } | undefined;
    let questionId = '';
    // The live message's first edit is refused with a 429 (Retry-After 1 s).
    slack.rateLimitNext((c) => c.method === 'chat.update' && String(c.args['text']).includes('running'), 1);

    // Act
    const options = restartOptions('web');
    const { result, events, startedAt } = await run(h, options, async (batch) => {
      if (batch !== 2) return;
      const live = actionsOf(posts()[0]).find((b) => b.block_id?.startsWith(CONTROL_BLOCK_PREFIX));
      const pause = live?.elements?.find((e) => e.value === 'pause');
      seen.atPause = restarts();
      pressedPause = await press(live?.block_id ?? '', pause?.action_id ?? '', 'pause');
      // Answered once parked: no restart may happen before the Resume press.
      void parkedQuestionId().then(async (id) => {
        questionId = id;
        seen.atQuestion = restarts();
        await new Promise((resolve) => setTimeout(resolve, 300));
        seen.beforeResume = restarts();
        pressedResume = await press(`approval:${id}`, 'answer:yes', 'yes');
      });
    });
    await loop.settled();
    await tellEnd(result, startedAt, options);
    const duration = Date.now() - startedAt;

    // Assert: paused before the third batch, attributed, nothing restarted until the Resume press.
    expect(pressedPause?.statusCode).toBe(200);
    expect(pressedResume?.statusCode).toBe(200);
    expect([seen.atPause, seen.atQuestion, seen.beforeResume]).toEqual([2, 2, 2]);
    expect(restarts()).toBe(10);
    expect((result.output as RunSummary).outcome).toBe('succeeded');
    expect(events).toContainEqual(expect.objectContaining({ type: 'paused' }));
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'resumed', resumedBy: 'alice (Slack U1)' }),
    );
    // The thread: one start message, the question and the end in it, the end also in the channel.
    const [start, question, end, ...more] = posts();
    expect(more).toEqual([]);
    const liveTs = String(
      (await localStores.runThreads.get(result.executions[0]?.executionArn ?? ''))?.messages['slack']?.ts,
    );
    expect(start?.args['thread_ts']).toBeUndefined();
    expect(text(start)).toContain('Plan: 10 allocations in 10 batches of up to 1');
    expect(text(start)).toContain('started by alice@laptop');
    expect(question?.args).toMatchObject({ thread_ts: liveTs });
    expect(text(question)).toMatch(/Paused by U1 \(Slack\) at \S+\.\n\s*Resume the restart\? \[y\/N\]/);
    expect(actionsOf(question)[0]?.elements?.map((e) => e.text.text)).toEqual(['Resume', 'Stop']);
    expect(questionId).not.toBe('');
    expect(end?.args).toMatchObject({ thread_ts: liveTs, reply_broadcast: 'true' });
    expect(text(end)).toContain('restart of job "web" succeeded');
    // Edits of the live message: the refused one, then none closer than 30 s, then the last one.
    const liveEdits = slack.calls.filter((c) => c.method === 'chat.update' && c.args['ts'] === liveTs);
    expect(slack.limited).toHaveLength(1);
    expect(liveEdits.length).toBeLessThanOrEqual(1 + Math.ceil(duration / 30_000));
    expect(text(liveEdits.at(-1))).toContain('All 10 batches done: 10 restarted, 0 failed');
    // The webhook got the same start and end, the end naming the live delivery.
    const deliveries = webhook.requests.map((r) => JSON.parse(r.body) as Record<string, unknown>);
    const first = deliveries[0];
    expect((first?.['message'] as { title?: string } | undefined)?.title).toBe(
      'nomad-restart: restart of job "web" running',
    );
    expect(deliveries).toContainEqual(
      expect.objectContaining({ thread: first?.['deliveryId'], broadcast: true }),
    );
    expect(loop.notifierErrors).toEqual([]);
  });

  it('stops a run paused from the signed webhook when the webhook asks it to stop, the lock released', async () => {
    // Arrange
    const h = await cluster(3);
    const restarts = () => h.sim.control.counters()[RESTART] ?? 0;
    const responses: { statusCode: number; body: string }[] = [];
    let prompt = '';

    // Act
    const { result } = await run(h, restartOptions('web'), async (batch, runId) => {
      if (batch !== 1) return;
      responses.push(await webhookRequest(runId, 'pause'));
      void parkedQuestionId().then(async (id) => {
        prompt = (await localStores.approvals.get(id)).prompt;
        responses.push(await webhookRequest(runId, 'stop'));
      });
    });
    await loop.settled();

    // Assert
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(JSON.parse(responses[0]?.body ?? '{}')).toMatchObject({ outcome: 'recorded' });
    expect(JSON.parse(responses[1]?.body ?? '{}')).toMatchObject({ outcome: 'answered' });
    expect(prompt).toMatch(/^Paused by bob \(webhook\) at \S+\.\n\s*Resume the restart\? \[y\/N\]$/);
    expect(result.output as RunSummary).toMatchObject({
      outcome: 'canceled',
      stoppedBy: 'bob (webhook key ops)',
    });
    expect(restarts()).toBe(1);
    expect(await localStores.lock.keysHeldBy(result.executions[0]?.executionArn ?? '')).toEqual([]);
    expect(await localStores.lock.held(KEY, result.executions[0]?.executionArn ?? '')).toBeUndefined();
  });
});
