/**
 * Run notifications fed by real runs. Each scenario runs a restart through the synthesized
 * workflow, the local engine and the real handlers against the simulator (ACLs on, so the
 * handlers carry a Nomad token), builds each execution's `Step Functions Execution Status
 * Change` event from the engine's result (the local placeholder ARNs moved to a real region, so
 * the console link is what AWS would give), and hands it to the real notify-run-ended handler,
 * which posts to a fake Slack Web API on 127.0.0.1. Scenarios: a run that succeeds; one that
 * finishes with errors; a chain of continue-as-new executions (only its last execution posts);
 * a run aborted while its question waits for an answer (the counts come from the record Decide
 * kept; the task token is in no message); a scheduled run whose job is gone (JobNotFound).
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SFNClient } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { APPROVAL_ENV } from '../../lib/approvals/settings';
import { type InvocationInterceptor, runRestartLocally } from '../../lib/engines/local/engine';
import type { LocalStateMachine } from '../../lib/engines/local/local-definition';
import { LocalTaskTokenCallbacks } from '../../lib/engines/local/task-token-callbacks';
import type { ExecutionResult } from '../../lib/engines/local/types';
import type { RestartInput } from '../../lib/restart/input';
import type { RunSummary } from '../../lib/restart/run-summary';
import { localStores } from '../../lib/stores/from-env';
import { FlowStates, TASK_STATE_HANDLERS, TaskStates } from '../../lib/workflow/state-names';
import type { AclSpec } from '../../sim/acl';
import { synthesizeStack } from '../aws-limits/helpers/synthesized-stack';
import { lambdaContext } from '../lambdas/helpers/fixtures';
import { statusChangeEvent } from '../lambdas/helpers/status-change';
import {
  type Harness,
  harnessPerTest,
  refuseFirstRestart,
  simpleJob,
  waitAllRunning,
} from '../steps/helpers/harness';
import { fakeSlackAroundAll, type SlackCall } from './helpers/fake-slack';

process.env['POWERTOOLS_LOG_LEVEL'] = 'SILENT';

const BOT_TOKEN = 'xoxb-run-ended-local-bot-token';
const NOMAD_TOKEN = 'nomad-acl-token-for-run-ended-tests';
const BOT_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:slack-bot-AbCdEf';
const ACL: AclSpec = { enabled: true, tokens: [{ secret: NOMAD_TOKEN, management: true }] };
const CONSOLE =
  'https://eu-west-1.console.aws.amazon.com/states/home?region=eu-west-1#/v2/executions/details/';

const secrets = mockClient(SecretsManagerClient);
const sfn = mockClient(SFNClient);
type Handler = (event: unknown, context: unknown) => Promise<{ outcome: string | null; posted: string[] }>;

const slack = fakeSlackAroundAll(BOT_TOKEN);
let handler: Handler;
const harness = harnessPerTest();

beforeAll(async () => {
  Object.assign(process.env, {
    [APPROVAL_ENV.slackBotTokenSecretArn]: BOT_ARN,
    [APPROVAL_ENV.slackChannelId]: 'C0RUNS',
    [APPROVAL_ENV.slackApiUrl]: slack.apiUrl,
  });
  secrets.on(GetSecretValueCommand, { SecretId: BOT_ARN }).resolves({ SecretString: BOT_TOKEN });
  handler = (await import('../../lambdas/notify-run-ended')).handler as unknown as Handler;
});
afterAll(async () => {
  for (const name of Object.values(APPROVAL_ENV)) delete process.env[name];
  secrets.restore();
  sfn.restore();
});
beforeEach(() => {
  slack.calls.length = 0;
});
afterEach(async () => {
  // Every event carried what the message needed: nothing was read back from Step Functions.
  expect(sfn.calls()).toEqual([]);
});

async function cluster(count: number): Promise<Harness> {
  const h = await harness.start(
    { jobs: [simpleJob('web', 'service', count)], acl: ACL },
    { token: NOMAD_TOKEN },
  );
  await waitAllRunning(h, 'web', count);
  return h;
}

/** The local placeholder account and region, as a deployment's. */
const deployed = (arn: string) => arn.replace(':local:000000000000:', ':eu-west-1:123456789012:');

interface LocalRun {
  readonly result: ExecutionResult;
  /** Each execution's status change, in order, as EventBridge would deliver it. */
  readonly events: Record<string, unknown>[];
}

/** Runs `input` locally and builds each execution's status-change event from the result. */
async function runAndObserve(
  input: RestartInput,
  extra: {
    stateMachine?: LocalStateMachine;
    intercept?: (abort: () => void) => InvocationInterceptor;
    callbacks?: LocalTaskTokenCallbacks;
  } = {},
): Promise<LocalRun> {
  const controller = new AbortController();
  // A successor's input is the state "Continue as new execution" was given.
  const inputs: unknown[] = [input];
  const startedAt = Date.now();
  const local = await runRestartLocally({
    input,
    nomad: { address: harness.current.sim.address, token: NOMAD_TOKEN },
    emit: () => {},
    prompt: async () => ({ kind: 'read-error', text: 'no terminal' }),
    signal: controller.signal,
    onStateExited: (name, output) => {
      if (name !== TaskStates.continueAsNew) return;
      const { continuedAs: _next, ...state } = output as Record<string, unknown>;
      inputs.push({ continuation: state });
    },
    waitTimeOverrides: { [FlowStates.waitBeforeNextBatch]: 0 },
    retryIntervalOverrides: Object.fromEntries(Object.keys(TASK_STATE_HANDLERS).map((name) => [name, 0])),
    ...(extra.stateMachine === undefined ? {} : { stateMachine: extra.stateMachine }),
    ...(extra.intercept === undefined
      ? {}
      : { interceptInvocation: extra.intercept(() => controller.abort()) }),
    ...(extra.callbacks === undefined ? {} : { taskTokenCallbacks: extra.callbacks }),
  });
  const result = await local.result;
  const stoppedAt = Date.now();
  const events = result.executions.map((execution, i) =>
    statusChangeEvent({
      executionArn: deployed(execution.executionArn),
      status: execution.status,
      startDate: startedAt,
      stopDate: stoppedAt,
      input: inputs[i] ?? null,
      output: execution.output,
      ...(execution.error === undefined ? {} : { error: execution.error }),
      ...(execution.cause === undefined ? {} : { cause: execution.cause }),
    }),
  );
  return { result, events };
}

/** Feeds every event to the handler, in order, and returns the Slack posts it made. */
async function notifyAll(run: LocalRun): Promise<SlackCall[]> {
  for (const event of run.events) await handler(event, lambdaContext());
  return slack.calls.filter((c) => c.method === 'chat.postMessage');
}

type Block = { type: string; text?: { text: string }; elements?: { text: string }[] };
const blocksOf = (post: SlackCall | undefined) => (post?.args['blocks'] ?? []) as Block[];
const sectionLines = (post: SlackCall | undefined) => (blocksOf(post)[1]?.text?.text ?? '').split('\n');
const lastArn = (run: LocalRun) => deployed(run.result.executions.at(-1)?.executionArn ?? '');

describe('run notifications from local-engine runs', () => {
  it("posts a succeeded run's own summary lines, with the console link and no secret", async () => {
    // Arrange
    await cluster(3);

    // Act
    const run = await runAndObserve({ job: 'web', batchSize: '2', yes: true, startedBy: 'alice@laptop' });
    const posts = await notifyAll(run);

    // Assert
    const summary = run.result.output as RunSummary;
    expect(run.result.status).toBe('SUCCEEDED');
    expect(posts).toHaveLength(1);
    expect(blocksOf(posts[0])[0]?.text?.text).toBe('nomad-restart: restart of job "web" succeeded');
    expect(sectionLines(posts[0])).toEqual([...summary.lines, 'Started by alice@laptop']);
    expect(summary.lines[1]).toBe('Allocations: 3 planned, 3 restarted, 0 failed');
    expect(blocksOf(posts[0]).at(-1)?.elements?.[0]?.text).toBe(
      `<${CONSOLE}${lastArn(run)}|Open the execution in the Step Functions console>`,
    );
    expect(JSON.stringify(slack.calls)).not.toContain(NOMAD_TOKEN);
    expect(JSON.stringify(slack.calls)).not.toContain(BOT_TOKEN);
  });

  it("posts a run that finished with errors: its summary, and Nomad's error list as a block", async () => {
    // Arrange: the first in-place restart is refused.
    const target = await cluster(2);
    refuseFirstRestart(target, 'nope');

    // Act
    const run = await runAndObserve({ job: 'web', yes: true });
    const posts = await notifyAll(run);

    // Assert
    expect(run.result).toMatchObject({ status: 'FAILED', error: 'RestartFailed' });
    const cause = (run.result.cause ?? '').split('\n');
    const listAt = cause.indexOf('1 error occurred while restarting job:');
    expect(listAt).toBeGreaterThan(0);
    expect(blocksOf(posts[0])[0]?.text?.text).toBe(
      'nomad-restart: restart of job "web" finished with errors',
    );
    expect(sectionLines(posts[0])).toEqual(cause.slice(0, listAt));
    expect(blocksOf(posts[0])[2]?.text?.text).toBe(`\`\`\`${cause.slice(listAt).join('\n')}\`\`\``);
    expect(cause.slice(listAt + 1).join('\n')).toMatch(/^\* Error restarting allocation ".+": .*nope/);
  });

  it('posts once for a chain of continue-as-new executions: the last one, with the whole run counted', async () => {
    // Arrange: one batch per execution, three batches.
    await cluster(3);
    const { stateMachine } = synthesizeStack({ batchesPerExecution: 1 });

    // Act
    const run = await runAndObserve({ job: 'web', batchSize: '1', yes: true }, { stateMachine });
    const results: unknown[] = [];
    for (const event of run.events) results.push(await handler(event, lambdaContext()));
    const posts = slack.calls.filter((c) => c.method === 'chat.postMessage');

    // Assert
    expect(run.result.executions.length).toBeGreaterThanOrEqual(3);
    expect(results.slice(0, -1)).toEqual(run.events.slice(0, -1).map(() => ({ outcome: null, posted: [] })));
    expect(results.at(-1)).toEqual({ outcome: 'succeeded', posted: ['slack'] });
    expect(posts).toHaveLength(1);
    expect(sectionLines(posts[0])).toContain('Allocations: 3 planned, 3 restarted, 0 failed');
    expect(blocksOf(posts[0]).at(-1)?.elements?.[0]?.text).toContain(lastArn(run));
  });

  it('posts a run aborted while its question waits: the counts Decide recorded, no task token', async () => {
    // Arrange: 4 allocations, 2 per batch, a question after each; the run is stopped while the
    // first question waits in the approvals table.
    await cluster(4);
    const tokens: string[] = [];
    const intercept =
      (abort: () => void): InvocationInterceptor =>
      async (state, invoke) => {
        const result = await invoke();
        if (state === TaskStates.ask) {
          const { approvalId } = result as { approvalId: string };
          tokens.push((await localStores.approvals.get(approvalId)).taskToken);
          abort();
        }
        return result;
      };

    // Act
    const run = await runAndObserve(
      { job: 'web', batchSize: '2', batchWait: 'ask', startedBy: 'bob' },
      { intercept, callbacks: new LocalTaskTokenCallbacks() },
    );
    const posts = await notifyAll(run);

    // Assert
    expect(run.result.status).toBe('ABORTED');
    expect(tokens).toHaveLength(1);
    expect(blocksOf(posts[0])[0]?.text?.text).toBe('nomad-restart: restart of job "web" aborted');
    expect(sectionLines(posts[0])).toEqual([
      'Restart of job "web" in namespace "default": aborted, the execution was stopped',
      'Allocations: 4 planned, 2 restarted, 0 failed, 2 not reached',
      expect.stringMatching(/^Started \S+, finished \S+, took \d+s$/),
      'Started by bob',
    ]);
    const everything = JSON.stringify(slack.calls);
    for (const secret of [...tokens, NOMAD_TOKEN, BOT_TOKEN]) expect(everything).not.toContain(secret);
  });

  it("posts a scheduled run whose job is gone with Nomad's message", async () => {
    // Arrange
    await cluster(1);
    const input = {
      job: 'gone',
      yes: true,
      trigger: 'schedule' as const,
      scheduleName: 'weekly-gone',
      scheduledTime: new Date().toISOString(),
    };

    // Act
    const run = await runAndObserve(input);
    const posts = await notifyAll(run);

    // Assert
    expect(run.result).toMatchObject({ status: 'FAILED', error: 'JobNotFound' });
    expect(blocksOf(posts[0])[0]?.text?.text).toBe(
      'nomad-restart: restart of job "gone" failed: JobNotFound',
    );
    expect(blocksOf(posts[0])[2]?.text?.text).toBe(
      '```JobNotFound: No job(s) with prefix or ID "gone" found```',
    );
    expect(sectionLines(posts[0]).at(-1)).toMatch(/^Started by schedule "weekly-gone" for /);
  });
});
