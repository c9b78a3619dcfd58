/**
 * Run control at the approval endpoint: a Slack Pause / Stop button and the signed webhook
 * request `{"runId", "request", "requestedBy"}`. A pause or stop of a running run is recorded on
 * its lock for the next safe point, attributed; a resume or stop of a run parked on its pause
 * question answers that question (yes / no) with exactly one SendTaskSuccess; a resume before the
 * safe point withdraws the pause. Refused: a run that has ended, a resume with nothing paused, a
 * Slack user off the allow-list (told privately), a webhook key that may not answer, a copy of a
 * signed request, a body that is not a request. A refused request writes nothing.
 */
import { SendTaskSuccessCommand, SFNClient } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import {
  APPROVAL_ROUTES,
  type ApprovalHttpRequest,
  CONTROL_BLOCK_PREFIX,
  type EndpointDeps,
  handleApprovalRequest,
} from '../../lib/approvals';
import type { ControlRequest } from '../../lib/control/requests';
import { type Approval, type MemoryApprovalStore, MemoryJobLock } from '../../lib/stores';
import {
  EXECUTION,
  endpointDeps,
  parkedQuestion,
  slackBody,
  slackHeaders,
  storeWith,
  TASK_TOKEN,
  WEBHOOK_KEYS,
  webhookHeaders,
} from './helpers/approvals';

const sfn = mockClient(SFNClient);
const NOW_S = 1_700_000_100;
const KEY = { namespace: 'default', jobId: 'web' };
const ENDED_RUN = 'arn:aws:states:eu-west-1:123456789012:execution:NomadRestart-Restart:run-gone';

interface Setup {
  deps: EndpointDeps;
  lock: MemoryJobLock;
  store: MemoryApprovalStore;
  told: { user: string; text: string }[];
}

/** The endpoint around a run `EXECUTION` holding job "web", with `questions` parked. */
async function setup(...questions: Approval[]): Promise<Setup> {
  const lock = new MemoryJobLock(() => NOW_S * 1000);
  await lock.acquire(KEY, { owner: EXECUTION, ttlSeconds: 600, execution: EXECUTION });
  const store = await storeWith(...questions);
  const told: Setup['told'] = [];
  const deps = endpointDeps(
    store,
    NOW_S,
    { info: () => {}, warn: () => {} },
    {
      tellPrivately: async (_channel, user, text) => void told.push({ user, text }),
      openModal: async () => {},
    },
  );
  return { deps: { ...deps, lock }, lock, store, told };
}

/** The pause question a paused run parks (the ask step names the state machine, as here). */
const pauseQuestion = () =>
  parkedQuestion({
    kind: 'pause',
    runId: EXECUTION,
    stateMachineArn: 'arn:aws:states:eu-west-1:123456789012:stateMachine:NomadRestart-Restart',
    prompt: 'Paused by U1 (Slack) at 2023-11-14T22:13:20Z.\nResume the restart? [y/N]',
  });

const webhook = (body: unknown, keyId: keyof typeof WEBHOOK_KEYS = 'ops'): ApprovalHttpRequest => {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return {
    method: 'POST',
    path: APPROVAL_ROUTES.webhookRequests,
    headers: webhookHeaders(text, NOW_S, keyId, WEBHOOK_KEYS[keyId]),
    body: text,
  };
};

const press = (verb: string, user = 'U1', runId = EXECUTION): ApprovalHttpRequest => {
  const body = slackBody({
    type: 'block_actions',
    user: { id: user, username: 'alice' },
    team: { id: 'T1' },
    channel: { id: 'C1' },
    trigger_id: 'trigger-1',
    actions: [{ action_id: `control:${verb}`, block_id: `${CONTROL_BLOCK_PREFIX}${runId}`, value: verb }],
  });
  return { method: 'POST', path: APPROVAL_ROUTES.slack, headers: slackHeaders(body, NOW_S), body };
};

const recorded = (s: Setup): Promise<ControlRequest | undefined> => s.lock.controlRequest(KEY, EXECUTION);

describe('run control at the approval endpoint', () => {
  afterEach(() => sfn.reset());

  it('records a Slack Pause press on the run lock, attributed, and tells the presser privately', async () => {
    // Arrange
    const s = await setup();

    // Act
    const response = await handleApprovalRequest(s.deps, press('pause'));

    // Assert
    expect(response.statusCode).toBe(200);
    expect(await recorded(s)).toEqual({ verb: 'pause', requestedBy: 'U1', via: 'slack', at: NOW_S * 1000 });
    expect(s.told).toEqual([
      {
        user: 'U1',
        text: 'Pause of job "web" requested by U1 (Slack): the run pauses before its next batch.',
      },
    ]);
    expect(sfn.calls()).toHaveLength(0);
  });

  it('tells a Slack user off the allow-list privately and records nothing', async () => {
    // Arrange
    const s = await setup();

    // Act
    const response = await handleApprovalRequest(s.deps, press('stop', 'U9'));

    // Assert
    expect(response.statusCode).toBe(200);
    expect(await recorded(s)).toBeUndefined();
    expect(s.told).toEqual([
      { user: 'U9', text: 'You are not allowed to pause or stop nomad-restart runs.' },
    ]);
  });

  it('records a signed webhook stop, attributed to its requestedBy', async () => {
    // Arrange
    const s = await setup();

    // Act
    const response = await handleApprovalRequest(
      s.deps,
      webhook({ runId: EXECUTION, request: 'stop', requestedBy: 'bob' }),
    );

    // Assert
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toEqual({
      outcome: 'recorded',
      message: 'Stop of job "web" requested by bob (webhook): the run stops before its next batch.',
    });
    expect(await recorded(s)).toEqual({ verb: 'stop', requestedBy: 'bob', via: 'webhook', at: NOW_S * 1000 });
  });

  it('answers the parked pause question yes for a webhook resume, with one SendTaskSuccess', async () => {
    // Arrange
    sfn.on(SendTaskSuccessCommand).resolves({});
    const q = pauseQuestion();
    const s = await setup(q);

    // Act
    const response = await handleApprovalRequest(
      s.deps,
      webhook({ runId: EXECUTION, request: 'resume', requestedBy: 'bob' }),
    );

    // Assert
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ outcome: 'answered' });
    const calls = sfn.commandCalls(SendTaskSuccessCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({
      taskToken: TASK_TOKEN,
      output: JSON.stringify({ answer: 'yes', answeredBy: 'bob (webhook key ops)' }),
    });
    expect(response.body).not.toContain(TASK_TOKEN);
  });

  it('answers the parked pause question no for a Slack Stop press', async () => {
    // Arrange
    sfn.on(SendTaskSuccessCommand).resolves({});
    const q = pauseQuestion();
    const s = await setup(q);

    // Act
    await handleApprovalRequest(s.deps, press('stop'));

    // Assert
    expect((await s.store.get(q.approvalId)).decision).toMatchObject({
      answer: 'no',
      answeredBy: 'alice (Slack U1)',
      via: 'slack',
      outcome: 'delivered',
    });
    expect(await recorded(s)).toBeUndefined();
  });

  it('withdraws a pause the run has not reached yet on a resume', async () => {
    // Arrange
    const s = await setup();
    await s.lock.requestControl(KEY, EXECUTION, { verb: 'pause', requestedBy: 'U1', via: 'slack', at: 1 });

    // Act
    const response = await handleApprovalRequest(
      s.deps,
      webhook({ runId: EXECUTION, request: 'resume', requestedBy: 'bob' }),
    );

    // Assert
    expect(JSON.parse(response.body)).toEqual({
      outcome: 'withdrawn',
      message: 'Pause of job "web" withdrawn by bob (webhook): the run goes on.',
    });
    expect(await recorded(s)).toBeUndefined();
  });

  it.each([
    {
      name: 'a resume with nothing paused',
      body: { runId: EXECUTION, request: 'resume', requestedBy: 'bob' },
      status: 409,
      message: 'The restart of job "web" in namespace "default" is not paused: there is nothing to resume',
    },
    {
      name: 'a run that has ended',
      body: { runId: ENDED_RUN, request: 'pause', requestedBy: 'bob' },
      status: 404,
      message: `No running restart has run id "${ENDED_RUN}": it has ended or never existed`,
    },
    {
      name: 'an unknown verb',
      body: { runId: EXECUTION, request: 'abort', requestedBy: 'bob' },
      status: 400,
      message: 'Webhook request "request" must be "pause", "resume" or "stop", got "abort"',
    },
    {
      name: 'a body without requestedBy',
      body: { runId: EXECUTION, request: 'pause' },
      status: 400,
      message:
        'Webhook request must be {"runId": string, "request": "pause"|"resume"|"stop", "requestedBy": string}',
    },
  ])('refuses $name and records nothing', async ({ body, status, message }) => {
    // Arrange
    const s = await setup();

    // Act
    const response = await handleApprovalRequest(s.deps, webhook(body));

    // Assert
    expect(response.statusCode).toBe(status);
    expect(JSON.parse(response.body)).toMatchObject({ message });
    expect(await recorded(s)).toBeUndefined();
  });

  it('refuses a webhook key that may not answer', async () => {
    // Arrange
    const s = await setup();

    // Act
    const response = await handleApprovalRequest(
      s.deps,
      webhook({ runId: EXECUTION, request: 'pause', requestedBy: 'bob' }, 'notify'),
    );

    // Assert
    expect(response.statusCode).toBe(403);
    expect(await recorded(s)).toBeUndefined();
  });

  it('refuses a second copy of one signed request', async () => {
    // Arrange
    const s = await setup();
    const sent = webhook({ runId: EXECUTION, request: 'pause', requestedBy: 'bob' });
    await handleApprovalRequest(s.deps, sent);
    await s.lock.clearControlRequest(KEY, EXECUTION, (await recorded(s)) as ControlRequest);

    // Act
    const again = await handleApprovalRequest(s.deps, sent);

    // Assert
    expect(again.statusCode).toBe(409);
    expect(await recorded(s)).toBeUndefined();
  });

  it('refuses a pause of a run already parked on its pause question', async () => {
    // Arrange
    const question = pauseQuestion();
    const s = await setup(question);

    // Act
    const response = await handleApprovalRequest(
      s.deps,
      webhook({ runId: EXECUTION, request: 'pause', requestedBy: 'bob' }),
    );

    // Assert
    expect(response.statusCode).toBe(409);
    expect(JSON.parse(response.body)).toMatchObject({
      message: `The restart of job "web" in namespace "default" is already paused: its question "${question.approvalId}" waits for an answer (resume or stop it)`,
    });
    expect(sfn.calls()).toHaveLength(0);
  });
});
