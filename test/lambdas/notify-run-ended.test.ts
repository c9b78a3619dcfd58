/**
 * The run-end notifier's Lambda handler, given `Step Functions Execution Status Change` events
 * for every way a run ends: succeeded, finished with errors, canceled (a "no", or a confirmed
 * interrupt), stopped on an unrecoverable error, failed in `InvalidInput` or `JobNotFound` (a job
 * deleted since its schedule was made), skipped because locked, stopped at the window end, timed
 * out and aborted (counts from the run's record). Each message is read where people read it: a
 * fake Slack Web API and a fake webhook on 127.0.0.1, SNS faked with aws-sdk-client-mock. A
 * continue-as-new hand-over posts nothing; an output left out of the event is read back with
 * DescribeExecution; no message carries a secret.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { DescribeExecutionCommand, SFNClient } from '@aws-sdk/client-sfn';
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { APPROVAL_ENV } from '../../lib/approvals/settings';
import { validateExecutionInput } from '../../lib/restart/execution-input';
import { type RunFacts, type RunSummary, summarizeRun } from '../../lib/restart/run-summary';
import { localStores } from '../../lib/stores/from-env';
import { planKeys } from '../../lib/stores/plan-keys';
import { TASK_TOKEN } from '../approvals/helpers/approvals';
import { type FakeSlack, startFakeSlack } from '../approvals/helpers/fake-slack';
import { type FakeWebhook, startFakeWebhook } from '../approvals/helpers/fake-webhook';
import { RUN_START, runFacts } from '../restart/helpers/run-facts';
import { lambdaContext } from './helpers/fixtures';
import { executionArn, type StatusChangeFacts, statusChangeEvent } from './helpers/status-change';

process.env['POWERTOOLS_LOG_LEVEL'] = 'SILENT';

const BOT_TOKEN = 'xoxb-run-ended-bot-token';
const WEBHOOK_SECRET = 'webhook-secret-run-ended';
const SECRET = (name: string) => `arn:aws:secretsmanager:eu-west-1:123456789012:secret:${name}-AbCdEf`;
const TOPIC = 'arn:aws:sns:eu-west-1:123456789012:nomad-restart-runs';
const START = RUN_START;
const STOP = START + 754_000;
const CONSOLE =
  'https://eu-west-1.console.aws.amazon.com/states/home?region=eu-west-1#/v2/executions/details/';

const secrets = mockClient(SecretsManagerClient);
const sns = mockClient(SNSClient);
const sfn = mockClient(SFNClient);
type Handler = (event: unknown, context: unknown) => Promise<{ outcome: string | null; posted: string[] }>;

let slack: FakeSlack;
let webhook: FakeWebhook;
let handler: Handler;

beforeAll(async () => {
  slack = await startFakeSlack(BOT_TOKEN);
  webhook = await startFakeWebhook();
  Object.assign(process.env, {
    [APPROVAL_ENV.slackBotTokenSecretArn]: SECRET('slack-bot'),
    [APPROVAL_ENV.slackChannelId]: 'C0RUNS',
    [APPROVAL_ENV.slackApiUrl]: slack.apiUrl,
    [APPROVAL_ENV.webhookUrl]: webhook.url,
    [APPROVAL_ENV.webhookSecretArn]: SECRET('webhook'),
    [APPROVAL_ENV.webhookKeyId]: 'ops',
    [APPROVAL_ENV.emailTopicArn]: TOPIC,
  });
  secrets.on(GetSecretValueCommand, { SecretId: SECRET('slack-bot') }).resolves({ SecretString: BOT_TOKEN });
  secrets
    .on(GetSecretValueCommand, { SecretId: SECRET('webhook') })
    .resolves({ SecretString: JSON.stringify({ ops: WEBHOOK_SECRET }) });
  handler = (await import('../../lambdas/notify-run-ended')).handler as unknown as Handler;
});
afterAll(async () => {
  for (const name of Object.values(APPROVAL_ENV)) delete process.env[name];
  secrets.restore();
  sns.restore();
  sfn.restore();
  await slack.close();
  await webhook.close();
});
afterEach(() => {
  // Whatever a test posted, no message carried a secret or a task token.
  const published = sns.commandCalls(PublishCommand).map((call) => call.args[0].input);
  const everything = JSON.stringify([slack.calls, webhook.requests.map((r) => r.body), published]);
  for (const secret of [BOT_TOKEN, WEBHOOK_SECRET, TASK_TOKEN]) expect(everything).not.toContain(secret);
});
beforeEach(() => {
  slack.calls.length = 0;
  webhook.requests.length = 0;
  webhook.status = 200;
  sns.reset();
  sns.on(PublishCommand).resolves({ MessageId: 'm-1' });
  sfn.reset();
});

/** A message as each channel received it. */
interface Received {
  readonly slackText: string;
  readonly blocks: { type: string; text?: { text: string }; elements?: { text: string }[] }[];
  readonly webhookMessage: { title: string; lines: string[]; preformatted?: string; link?: { url: string } };
  readonly snsSubject: string;
  readonly snsMessage: string;
}

function received(): Received {
  const posts = slack.calls.filter((c) => c.method === 'chat.postMessage');
  expect(posts).toHaveLength(1);
  expect(webhook.requests).toHaveLength(1);
  expect(sns.commandCalls(PublishCommand)).toHaveLength(1);
  const post = posts[0]?.args ?? {};
  const publish = sns.commandCalls(PublishCommand)[0]?.args[0].input;
  return {
    slackText: String(post['text']),
    blocks: post['blocks'] as Received['blocks'],
    webhookMessage: (JSON.parse(webhook.requests[0]?.body ?? '{}') as { message: Received['webhookMessage'] })
      .message,
    snsSubject: publish?.Subject ?? '',
    snsMessage: publish?.Message ?? '',
  };
}

/** What the channels received, once the handler ended as `outcome` with the webhook message titled `title`. */
function receivedAfter(result: { outcome: string | null }, outcome: string, title: string): Received {
  expect(result.outcome).toBe(outcome);
  const got = received();
  expect(got.webhookMessage.title).toBe(title);
  return got;
}

const notify = (facts: StatusChangeFacts) => handler(statusChangeEvent(facts), lambdaContext());

const summary = (over: Partial<RunFacts>): RunSummary =>
  summarizeRun(
    runFacts({
      jobId: 'web',
      planned: 6,
      restarted: 6,
      skipped: { notRunning: 1 },
      finishedAt: STOP,
      ...over,
    }),
  );

const ended = (name: string, over: Partial<StatusChangeFacts>): StatusChangeFacts => ({
  executionArn: executionArn(name),
  status: 'SUCCEEDED',
  startDate: START,
  stopDate: STOP,
  input: { job: 'web', startedBy: 'alice@laptop' },
  ...over,
});

/** Puts run `name`'s record in the plan store (the local twin of the plan bucket). */
async function recordRun(name: string, record: Record<string, unknown>): Promise<void> {
  await localStores.planStore.put(planKeys.runRecord(executionArn(name)), record);
}

const ERROR = 'Error restarting allocation "3b0c5a1e": Unexpected response code: 500 (Task not running)';

describe('notify-run-ended handler', () => {
  it.each([
    {
      ending: 'succeeded',
      facts: {},
      title: 'nomad-restart: restart of job "web" succeeded',
      line: 'Allocations: 6 planned, 6 restarted, 0 failed',
    },
    {
      ending: 'canceled (a "no" to a question)',
      facts: { outcome: 'canceled', restarted: 2 },
      title: 'nomad-restart: restart of job "web" canceled',
      line: 'Allocations: 6 planned, 2 restarted, 0 failed, 4 not reached',
    },
    {
      ending: 'stopped at the window end',
      facts: {
        outcome: 'stopped-at-window-end',
        restarted: 4,
        windowEnd: START + 3600_000,
        windowReached: true,
        scheduleName: 'weekly-web',
        scheduledTime: START,
      },
      title: 'nomad-restart: restart of job "web" stopped at the end of its maintenance window',
      line: 'Maintenance window: ended 2026-11-29T03:00:00.000Z, 4 of 6 allocations done, 2 left',
    },
    {
      ending: 'skipped because locked',
      facts: {
        outcome: 'skipped-job-locked',
        planned: 0,
        restarted: 0,
        skipped: {},
        lockedBy: executionArn('by-hand'),
        scheduleName: 'weekly-web',
        scheduledTime: START,
      },
      title: 'nomad-restart: restart of job "web" skipped, the job is locked by another run',
      line: `Restart of job "web" in namespace "default": skipped, the job is already being restarted by execution "${executionArn('by-hand')}"`,
    },
  ] as const)(
    'posts a run that $ending with its summary and console link',
    async ({ facts, title, line }) => {
      // Arrange
      const output = summary(facts as Partial<RunFacts>);

      // Act
      const result = await notify(ended('run-ok', { output }));

      // Assert
      const got = received();
      expect(result).toEqual({ outcome: output.outcome, posted: ['slack', 'webhook', 'sns'] });
      expect(got.webhookMessage).toEqual({
        title,
        lines: [...output.lines, 'Started by alice@laptop'],
        link: {
          text: 'Open the execution in the Step Functions console',
          url: `${CONSOLE}${executionArn('run-ok')}`,
        },
      });
      expect(got.webhookMessage.lines).toContain(line);
      expect(got.blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: title } });
      expect(got.blocks.at(-1)?.elements?.[0]?.text).toBe(
        `<${CONSOLE}${executionArn('run-ok')}|Open the execution in the Step Functions console>`,
      );
      expect(got.slackText).toContain(line);
      expect(got.snsSubject).toBe(title);
      expect(got.snsMessage).toContain(`${CONSOLE}${executionArn('run-ok')}`);
    },
  );

  it.each([
    { error: 'RestartFailed', outcome: 'failed', ending: 'finished with errors' },
    { error: 'UnrecoverableError', outcome: 'unrecoverable', ending: 'stopped on an unrecoverable error' },
  ] as const)("posts a run that ended in $error with its summary and Nomad's error list", async (c) => {
    // Arrange: the Fail state's cause is the summary's text.
    const made = summary({ outcome: c.outcome, restarted: 3, failed: 1, errors: [ERROR] });

    // Act
    const result = await notify(ended('run-errors', { status: 'FAILED', error: c.error, cause: made.text }));

    // Assert
    const got = receivedAfter(result, c.outcome, `nomad-restart: restart of job "web" ${c.ending}`);
    expect(got.webhookMessage.lines).toEqual([
      ...made.lines.slice(0, made.lines.indexOf('1 error occurred while restarting job:')),
      'Started by alice@laptop',
    ]);
    expect(got.webhookMessage.preformatted).toBe(`1 error occurred while restarting job:\n* ${ERROR}`);
    expect(made.errorText).toBe(got.webhookMessage.preformatted);
    expect(got.blocks[2]?.text?.text).toBe(`\`\`\`${made.errorText}\`\`\``);
  });

  it("posts InvalidInput with Nomad's message, before anything was touched", async () => {
    // Arrange
    const input = { job: 'web', batchSize: '0' };
    const cause = (() => {
      try {
        validateExecutionInput(input);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('the input was valid');
    })();

    // Act
    const result = await notify(
      ended('bad-input', { status: 'FAILED', input, error: 'InvalidInput', cause }),
    );

    // Assert
    const got = receivedAfter(result, 'error', 'nomad-restart: restart of job "web" failed: InvalidInput');
    expect(got.webhookMessage.lines).toEqual([
      'Restart of job "web" in namespace "default": stopped by an error',
      'Started 2026-11-29T02:00:00.000Z, finished 2026-11-29T02:12:34.000Z, took 12m34s',
    ]);
    expect(got.webhookMessage.preformatted).toBe(`InvalidInput: ${cause}`);
    expect(cause).toContain('Invalid -batch-size value "0"');
  });

  it('names no job when the input named none', async () => {
    // Act
    await notify(
      ended('no-job', { status: 'FAILED', input: {}, error: 'InvalidInput', cause: 'Missing job' }),
    );

    // Assert
    expect(received().webhookMessage.title).toBe('nomad-restart: a run failed: InvalidInput');
  });

  it('posts a scheduled run whose job was deleted since the schedule was made (JobNotFound)', async () => {
    // Arrange
    const input = {
      job: 'gone',
      batchSize: '10%',
      yes: true,
      trigger: 'schedule',
      scheduleName: 'weekly-gone',
      scheduledTime: '2026-11-29T02:00:00Z',
      windowDuration: '2h',
    };

    // Act
    await notify(
      ended('gone', {
        status: 'FAILED',
        input,
        error: 'JobNotFound',
        cause: 'No job(s) with prefix or ID "gone" found',
      }),
    );

    // Assert
    const got = received();
    expect(got.webhookMessage.title).toBe('nomad-restart: restart of job "gone" failed: JobNotFound');
    expect(got.webhookMessage.lines).toEqual([
      'Restart of job "gone" in namespace "default": stopped by an error',
      'Maintenance window: until 2026-11-29T04:00:00.000Z',
      'Started 2026-11-29T02:00:00.000Z, finished 2026-11-29T02:12:34.000Z, took 12m34s',
      'Started by schedule "weekly-gone" for 2026-11-29T02:00:00.000Z',
    ]);
    expect(got.webhookMessage.preformatted).toBe('JobNotFound: No job(s) with prefix or ID "gone" found');
    expect(got.snsSubject).toBe('nomad-restart: restart of job "gone" failed: JobNotFound');
  });

  it('posts a confirmed interrupt (Canceled) with the counts from the run record', async () => {
    // Arrange
    await recordRun('interrupted', {
      errors: [],
      countedBatches: [0],
      counts: { planned: 6, restarted: 2, failed: 0, skipped: {} },
    });

    // Act
    const result = await notify(
      ended('interrupted', { status: 'FAILED', error: 'Canceled', cause: 'Canceling job restart process' }),
    );

    // Assert
    const got = receivedAfter(result, 'canceled', 'nomad-restart: restart of job "web" canceled');
    expect(got.webhookMessage.lines).toContain(
      'Allocations: 6 planned, 2 restarted, 0 failed, 4 not reached',
    );
    expect(got.webhookMessage.preformatted).toBeUndefined();
  });

  it('posts an aborted run with what its record holds: counts and errors', async () => {
    // Arrange
    await recordRun('stopped', {
      errors: [{ message: ERROR }],
      countedBatches: [0, 1],
      counts: { planned: 6, restarted: 3, failed: 1, skipped: { notRunning: 1 } },
    });

    // Act
    const result = await notify(ended('stopped', { status: 'ABORTED' }));

    // Assert
    const got = received();
    expect(result.outcome).toBe('aborted');
    expect(got.webhookMessage).toEqual({
      title: 'nomad-restart: restart of job "web" aborted',
      lines: [
        'Restart of job "web" in namespace "default": aborted, the execution was stopped',
        'Allocations: 6 planned, 3 restarted, 1 failed, 2 not reached',
        'Skipped: 1 not running',
        'Started 2026-11-29T02:00:00.000Z, finished 2026-11-29T02:12:34.000Z, took 12m34s',
        'Started by alice@laptop',
      ],
      preformatted: `1 error occurred while restarting job:\n* ${ERROR}`,
      link: {
        text: 'Open the execution in the Step Functions console',
        url: `${CONSOLE}${executionArn('stopped')}`,
      },
    });
  });

  it('posts an aborted run that has no record yet with the job and how it ended', async () => {
    // Act
    await notify(ended('stopped-early', { status: 'ABORTED', error: 'Stopped', cause: 'by the on-call' }));

    // Assert
    const got = received();
    expect(got.webhookMessage.lines).toEqual([
      'Restart of job "web" in namespace "default": aborted, the execution was stopped',
      'Started 2026-11-29T02:00:00.000Z, finished 2026-11-29T02:12:34.000Z, took 12m34s',
      'Started by alice@laptop',
    ]);
    expect(got.webhookMessage.preformatted).toBe('Stopped: by the on-call');
  });

  it("posts a timed-out continued execution with the run's start and its record's counts", async () => {
    // Arrange: the third execution of run "long"; its input carries the run's state.
    const runId = executionArn('long');
    await recordRun('long', {
      errors: [],
      countedBatches: [0, 1, 2, 3],
      counts: { planned: 40, restarted: 20, failed: 0, skipped: {} },
    });
    const continuation = {
      options: validateExecutionInput({ job: 'web', namespace: 'prod', startedBy: 'cron' }),
      run: {
        runId,
        executionId: executionArn('long-3'),
        executionNumber: 3,
        startedAt: START - 86_400_000,
        startedBy: 'cron',
      },
      plan: {
        planKey: 'k',
        jobId: 'web',
        namespace: 'prod',
        jobType: 'service',
        allocationCount: 40,
        batchSize: 5,
        batchCount: 8,
        triggerEvaluations: false,
      },
      progress: {
        nextBatch: 2,
        batchesThisExecution: 0,
        restarted: 10,
        failed: 0,
        errorCount: 0,
        askBetweenBatches: false,
        batchWaitMs: 0,
        canceled: false,
      },
    };

    // Act
    const result = await notify(
      ended('long-3', { status: 'TIMED_OUT', input: { continuation }, error: 'States.Timeout' }),
    );

    // Assert
    const got = receivedAfter(result, 'timed-out', 'nomad-restart: restart of job "web" timed out');
    expect(got.webhookMessage.lines).toEqual([
      'Restart of job "web" in namespace "prod": timed out, the execution ran out of time',
      'Allocations: 40 planned, 20 restarted, 0 failed, 20 not reached',
      'Started 2026-11-28T02:00:00.000Z, finished 2026-11-29T02:12:34.000Z, took 24h12m34s',
      'Started by cron',
    ]);
    expect(got.webhookMessage.link?.url).toBe(`${CONSOLE}${executionArn('long-3')}`);
  });

  it('posts nothing for an execution that handed over to its continue-as-new successor', async () => {
    // Act
    const result = await notify(ended('run-1', { output: { executionArn: executionArn('run-2') } }));

    // Assert
    expect(result).toEqual({ outcome: null, posted: [] });
    expect(slack.calls).toEqual([]);
    expect(webhook.requests).toEqual([]);
    expect(sns.commandCalls(PublishCommand)).toEqual([]);
  });

  it.each(['StepFunctions.ExecutionAlreadyExistsException', 'StepFunctions.ExecutionAlreadyExists'])(
    'posts nothing for a hand-over whose retried start found the successor already there (%s)',
    async (error) => {
      // Arrange: "Continued in new execution" outputs what the Catch wrote.
      const output = { Error: error, Cause: `Execution Already Exists: '${executionArn('run-2')}'` };

      // Act
      const result = await notify(ended('run-1', { output }));

      // Assert
      expect(result).toEqual({ outcome: null, posted: [] });
      expect(slack.calls).toEqual([]);
      expect(webhook.requests).toEqual([]);
    },
  );

  it('reads an output left out of the event with DescribeExecution', async () => {
    // Arrange
    const output = summary({});
    sfn.on(DescribeExecutionCommand, { executionArn: executionArn('big') }).resolves({
      status: 'SUCCEEDED',
      input: JSON.stringify({ job: 'web' }),
      output: JSON.stringify(output),
    });

    // Act
    const result = await notify(ended('big', { output: null }));

    // Assert
    expect(sfn.commandCalls(DescribeExecutionCommand)).toHaveLength(1);
    expect(result.outcome).toBe('succeeded');
    expect(received().webhookMessage.lines).toEqual([...output.lines, 'Started by alice@laptop']);
  });

  it('reads a left-out input and cause with DescribeExecution', async () => {
    // Arrange
    sfn.on(DescribeExecutionCommand).resolves({
      status: 'FAILED',
      input: JSON.stringify({ job: 'huge' }),
      error: 'JobNotFound',
      cause: 'No job(s) with prefix or ID "huge" found',
    });

    // Act
    await notify(ended('huge', { status: 'FAILED', input: null, error: 'JobNotFound' }));

    // Assert
    const got = received();
    expect(got.webhookMessage.title).toBe('nomad-restart: restart of job "huge" failed: JobNotFound');
    expect(got.webhookMessage.preformatted).toBe('JobNotFound: No job(s) with prefix or ID "huge" found');
  });

  it('tells the channels that work when one is down, and logs the one that is not', async () => {
    // Arrange
    webhook.status = 500;

    // Act
    const result = await notify(ended('partly', { output: summary({}) }));

    // Assert
    expect(result.posted).toEqual(['slack', 'sns']);
    expect(webhook.requests).toHaveLength(1);
  });

  it('fails, so Lambda retries, when no channel could be told', async () => {
    // Arrange
    webhook.status = 503;
    sns.on(PublishCommand).rejects(new Error('SNS is down'));
    process.env[APPROVAL_ENV.slackApiUrl] = `${webhook.url}/slack/`;

    // Act
    const act = notify(ended('nobody', { output: summary({}) }));

    // Assert
    await expect(act).rejects.toThrow();
    process.env[APPROVAL_ENV.slackApiUrl] = slack.apiUrl;
  });
});
