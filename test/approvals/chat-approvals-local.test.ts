/**
 * Chat-ops approvals end to end, without AWS. A local-engine run of the synthesized workflow
 * against the simulator parks its question through the real ask handler; the real notifier posts
 * it to a fake Slack API on 127.0.0.1; a signed Slack interactivity request for a button goes to
 * the real endpoint handler, whose SendTaskSuccess (the SFN client faked) completes the local
 * engine's task token; the run then goes on with Nomad's semantics, and the Slack message is
 * updated in place. Scenarios: "Proceed, then wait 10s" (Nomad's `command/job_restart.go`
 * `shouldProceed`: the new wait, no more questions); `onError: ask` answered Cancel (Nomad's exit
 * semantics: canceled, errors, exit 1); a question nobody answers in time (the default, "no"; the
 * message says so; a late press changes nothing). The task token appears in no Slack call, log
 * line, output or response.
 */

import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SendTaskSuccessCommand } from '@aws-sdk/client-sfn';
import { jest } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import { APPROVAL_ROUTES } from '../../lib/approvals/endpoint';
import { APPROVAL_ENV } from '../../lib/approvals/settings';
import { exitCodeOf } from '../../lib/cli/terminal/exit-code';
import { runRestartLocally } from '../../lib/engines/local/engine';
import type { LocalStateMachine } from '../../lib/engines/local/local-definition';
import type { ExecutionResult } from '../../lib/engines/local/types';
import type { ProgressEvent } from '../../lib/restart/events';
import { createFormatter } from '../../lib/restart/format';
import { toRestartInput } from '../../lib/restart/input';
import type { RestartOptions } from '../../lib/restart/options';
import { localStores } from '../../lib/stores/from-env';
import { FlowStates, TASK_STATE_HANDLERS, TaskStates } from '../../lib/workflow/state-names';
import { cachedStack } from '../aws-limits/helpers/cached-stack';
import { discardingTerminal } from '../engines/local/helpers/workflow-harness';
import { restartOptions } from '../fixtures/restart-options';
import { harnessPerTest, refuseFirstRestart, simpleJob } from '../steps/helpers/harness';
import { SIGNING_SECRET, slackBody, slackHeaders } from './helpers/approvals';
import { serveChatSecrets, slackEnvironment } from './helpers/chat-secrets';
import { fakeSlackAroundAll, type SlackCall } from './helpers/fake-slack';
import { type LocalLoop, startLocalLoop } from './helpers/local-loop';

const BOT_TOKEN = 'xoxb-bot-token-for-tests';
const secrets = mockClient(SecretsManagerClient);
const written: string[] = [];
const slack = fakeSlackAroundAll(BOT_TOKEN);
let loop: LocalLoop;
const harness = harnessPerTest();

beforeAll(async () => {
  Object.assign(process.env, {
    ...slackEnvironment(slack.apiUrl),
    // Every handler's log line is kept and searched for the task token.
    POWERTOOLS_LOG_LEVEL: 'DEBUG',
  });
  serveChatSecrets(secrets, BOT_TOKEN);
  loop = await startLocalLoop();
});
afterAll(async () => {
  loop.close();
  secrets.restore();
  for (const name of Object.values(APPROVAL_ENV)) delete process.env[name];
  process.env['POWERTOOLS_LOG_LEVEL'] = 'SILENT';
});
beforeEach(() => {
  slack.calls.length = 0;
  written.length = 0;
  loop.sfn.resetHistory();
  const keep = (chunk: unknown) => void written.push(String(chunk));
  jest.spyOn(process.stdout, 'write').mockImplementation(((c: unknown) => {
    keep(c);
    return true;
  }) as never);
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    jest.spyOn(console, method).mockImplementation((...args: unknown[]) => keep(args.map(String).join(' ')));
  }
});
afterEach(async () => {
  jest.restoreAllMocks();
});

interface Run {
  readonly result: Promise<ExecutionResult>;
  readonly events: ProgressEvent[];
}

async function startRun(options: RestartOptions, stateMachine?: LocalStateMachine): Promise<Run> {
  const events: ProgressEvent[] = [];
  const local = await runRestartLocally({
    // Not -yes: the questions are the point.
    input: { ...toRestartInput({ ...options, yes: false }), startedBy: 'alice@laptop' },
    nomad: { address: harness.current.sim.address },
    emit: (event) => events.push(event),
    prompt: async () => {
      throw new Error('the question was asked at the terminal, not in chat');
    },
    taskTokenCallbacks: loop.callbacks,
    waitTimeOverrides: { [FlowStates.waitBeforeNextBatch]: 0 },
    retryIntervalOverrides: Object.fromEntries(Object.keys(TASK_STATE_HANDLERS).map((name) => [name, 0])),
    ...(stateMachine === undefined ? {} : { stateMachine }),
  });
  return { result: local.result, events };
}

type Button = { action_id: string; value: string; text: { text: string } };

/** The approval id and buttons of a posted question. */
function questionOf(post: SlackCall): { approvalId: string; buttons: Button[]; text: string } {
  const blocks = post.args['blocks'] as { type: string; block_id?: string; elements?: Button[] }[];
  const actions = blocks.find((b) => b.type === 'actions');
  return {
    approvalId: (actions?.block_id ?? '').replace('approval:', ''),
    buttons: actions?.elements ?? [],
    text: String(post.args['text']),
  };
}

/** Presses `reply`'s button as Slack user `userId`, signed with the app's signing secret. */
async function press(approvalId: string, button: Button | undefined, userId = 'U1') {
  const payload = {
    type: 'block_actions',
    user: { id: userId, username: 'alice' },
    team: { id: 'T1' },
    channel: { id: 'C1' },
    trigger_id: 'trigger',
    actions: [{ action_id: button?.action_id, block_id: `approval:${approvalId}`, value: button?.value }],
  };
  const body = slackBody(payload);
  return loop.answer(APPROVAL_ROUTES.slack, slackHeaders(body, Math.floor(Date.now() / 1000)), body);
}

const lines = (events: readonly ProgressEvent[]) => {
  const f = createFormatter({ verbose: false, color: false, timeZone: 'UTC' });
  return events.flatMap((e) => f.render(e)).map((l) => l.text.replace(/^==> [^:]+:[^:]+:[^:]+: /, '==> '));
};

const exitCode = (result: ExecutionResult) =>
  exitCodeOf(result, createFormatter({ verbose: false, color: false }), discardingTerminal);

/**
 * Every place a secret must never be: the task token, the Slack signing secret and the bot token
 * (which only ever rides in the Authorization header) in no chat message, log line or output.
 */
function expectNoTaskToken(token: string, ...more: unknown[]) {
  expect(token.length).toBeGreaterThan(20);
  const everything = JSON.stringify([slack.calls, written, ...more]);
  expect(everything).not.toContain(token);
  expect(everything).not.toContain(SIGNING_SECRET);
  expect(everything).not.toContain(BOT_TOKEN);
}

describe('chat-ops approvals through the local engine', () => {
  it('posts the question to Slack, takes "Proceed, then wait 10s", and the run goes on with the new wait', async () => {
    // Arrange
    await harness.startRunning(simpleJob('web', 'service', 3));
    const run = await startRun(restartOptions('web', { batchWait: { kind: 'ask' } }));
    const posted = questionOf(await slack.waitFor('chat.postMessage'));
    const token = (await localStores.approvals.get(posted.approvalId)).taskToken;

    // Act
    const response = await press(
      posted.approvalId,
      posted.buttons.find((b) => b.value === '10s'),
    );
    const result = await run.result;
    await loop.settled();

    // Assert
    expect(response.statusCode).toBe(200);
    expect(posted.buttons.map((b) => b.text.text)).toEqual([
      'Proceed',
      'Cancel',
      'Proceed, then wait 10s',
      'Proceed, then wait 1m',
      'Proceed, then wait 5m',
      'Proceed, then wait…',
    ]);
    expect(posted.text).toContain('Proceed with the next batch? [Y/n/<wait duration>]');
    expect(posted.text).toContain('Job "web" in namespace "default"');
    expect(posted.text).toContain('Batch 1 of 3 (1 allocation) ran without errors');
    expect(posted.text).toContain('Started by alice@laptop');
    expect(loop.sfn.commandCalls(SendTaskSuccessCommand)).toHaveLength(1);
    expect(exitCode(result)).toBe(0);
    expect(lines(run.events)).toEqual(
      expect.arrayContaining([
        '==> Proceeding restarts with new wait time of 10s',
        '==> Waiting 10s before restarting the next batch',
        '==> Job restart finished',
      ]),
    );
    // Answered once: no further question after a duration answer.
    expect(slack.calls.filter((c) => c.method === 'chat.postMessage')).toHaveLength(1);
    const update = await slack.waitFor('chat.update');
    expect(update.args['ts']).toBeDefined();
    expect(String(update.args['text'])).toMatch(/alice \(Slack U1\) answered "10s" at .* \(slack\)\./);
    expect(JSON.stringify(update.args['blocks'])).not.toContain('"actions"');
    expect(loop.notifierErrors).toEqual([]);
    // The handlers' log lines were captured (so searching them means something).
    expect(written.join('')).toContain('"message":"Question parked"');
    expect(written.join('')).toContain('"message":"Answer handled"');
    expectNoTaskToken(token, result, run.events, response);
  });

  it("ends the run with Nomad's exit semantics when an error question is answered Cancel", async () => {
    // Arrange
    const h = await harness.startRunning(simpleJob('web', 'service', 2));
    refuseFirstRestart(h, 'no such task');
    const run = await startRun(restartOptions('web'));
    const posted = questionOf(await slack.waitFor('chat.postMessage'));

    // Act
    const response = await press(
      posted.approvalId,
      posted.buttons.find((b) => b.text.text === 'Cancel'),
    );
    const result = await run.result;
    await loop.settled();

    // Assert
    expect(response.statusCode).toBe(200);
    expect(posted.text).toContain('Ignore the errors above and proceed with the next batch? [y/N]');
    expect(posted.text).toContain('1 error occurred while restarting job:');
    expect(posted.buttons.map((b) => b.value)).toEqual(['yes', 'no']);
    expect(lines(run.events)).toContain('==> Job restart canceled');
    expect(run.events.filter((e) => e.type === 'allocation-restarting')).toHaveLength(1);
    expect(exitCode(result)).toBe(1);
    expect(String((await slack.waitFor('chat.update')).args['text'])).toContain('answered "no"');
  });

  it('applies the default when nobody answers in time, says so in Slack, and a late press changes nothing', async () => {
    // Arrange: the same definition with a 1-second approval timeout (the construct allows no less
    // than a minute, which a test should not wait for).
    const { stateMachine } = await cachedStack();
    const definition = structuredClone(stateMachine.definition) as {
      States: Record<string, Record<string, unknown>>;
    };
    const ask = definition.States[TaskStates.ask];
    if (ask === undefined) throw new Error('no ask state');
    ask['TimeoutSeconds'] = 1;
    await harness.startRunning(simpleJob('web', 'service', 2));
    const run = await startRun(restartOptions('web', { batchWait: { kind: 'ask' } }), {
      ...stateMachine,
      definition,
    });
    const posted = questionOf(await slack.waitFor('chat.postMessage'));

    // Act
    const result = await run.result;
    await loop.settled();
    const late = await press(posted.approvalId, posted.buttons[0]);

    // Assert
    expect(lines(run.events)).toContain('==> Job restart canceled');
    expect(exitCode(result)).toBe(0);
    const update = await slack.waitFor('chat.update');
    expect(String(update.args['text'])).toMatch(
      /Nobody answered in time: Nomad's default answer, "no", applied at /,
    );
    expect(late.statusCode).toBe(200);
    expect(loop.sfn.commandCalls(SendTaskSuccessCommand)).toHaveLength(0);
    const told = await slack.waitFor('chat.postEphemeral');
    expect(String(told.args['text'])).toMatch(/^Already decided: Nobody answered in time/);
  });
});
