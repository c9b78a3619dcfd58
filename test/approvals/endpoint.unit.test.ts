/**
 * The approval endpoint (Slack interactivity and webhook answers): a valid answer makes exactly
 * one SendTaskSuccess; a forged, stale, replayed, unauthorised, malformed or unknown one, or one
 * for a run that has ended, changes nothing, makes no Step Functions call (beyond the one that
 * finds the run ended), and is answered without a 5xx. No response or log line carries the task
 * token or a secret.
 */
import { SendTaskSuccessCommand, SFNClient } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import {
  APPROVAL_ROUTES,
  type ApprovalHttpRequest,
  type EndpointDeps,
  handleApprovalRequest,
} from '../../lib/approvals';
import { type Approval, type MemoryApprovalStore, newApprovalId } from '../../lib/stores';
import {
  buttonPress,
  endpointDeps,
  parkedQuestion,
  SIGNING_SECRET,
  slackBody,
  slackHeaders,
  storeWith,
  TASK_TOKEN,
  WEBHOOK_KEYS,
  webhookHeaders,
} from './helpers/approvals';

const sfn = mockClient(SFNClient);
const NOW_MS = 1_700_000_100_000;
const NOW_S = NOW_MS / 1000;

interface Setup {
  deps: EndpointDeps;
  store: MemoryApprovalStore;
  logs: string[];
  told: { channel: string; user: string; text: string }[];
  modals: unknown[];
}

async function setup(store: MemoryApprovalStore): Promise<Setup> {
  const logs: string[] = [];
  const told: Setup['told'] = [];
  const modals: unknown[] = [];
  const log = (message: string, fields: Record<string, unknown>) =>
    logs.push(JSON.stringify({ message, ...fields }));
  return {
    store,
    logs,
    told,
    modals,
    deps: endpointDeps(
      store,
      NOW_S,
      { info: log, warn: log },
      {
        tellPrivately: async (channel, user, text) => void told.push({ channel, user, text }),
        openModal: async (_trigger, view) => void modals.push(view),
      },
    ),
  };
}

/** A parked question and the same request about it sent twice (`request` builds it); both answers. */
async function sendTwice(request: (q: Approval) => ApprovalHttpRequest) {
  const q = parkedQuestion();
  const s = await setup(await storeWith(q));
  const sent = request(q);
  const first = await handleApprovalRequest(s.deps, sent);
  const second = await handleApprovalRequest(s.deps, sent);
  return { q, s, first, second };
}

const slackRequest = (payload: unknown, at = NOW_S, secret = SIGNING_SECRET): ApprovalHttpRequest => {
  const body = slackBody(payload);
  return { method: 'POST', path: APPROVAL_ROUTES.slack, headers: slackHeaders(body, at, secret), body };
};

const webhookRequest = (answer: unknown, keyId = 'ops', at = NOW_S): ApprovalHttpRequest => {
  const body = typeof answer === 'string' ? answer : JSON.stringify(answer);
  const secret = WEBHOOK_KEYS[keyId as keyof typeof WEBHOOK_KEYS] ?? 'unknown';
  return {
    method: 'POST',
    path: APPROVAL_ROUTES.webhook,
    headers: webhookHeaders(body, at, keyId, secret),
    body,
  };
};

/** bob's signed webhook answer "yes" to `q`. */
const bobSaysYes = (q: Approval): ApprovalHttpRequest =>
  webhookRequest({ approvalId: q.approvalId, answer: 'yes', answeredBy: 'bob' });

/** A question bob has already answered "no" by webhook, Step Functions taking the answer. */
async function decidedByBob() {
  sfn.on(SendTaskSuccessCommand).resolves({});
  const q = parkedQuestion();
  const s = await setup(await storeWith(q));
  await handleApprovalRequest(
    s.deps,
    webhookRequest({ approvalId: q.approvalId, answer: 'no', answeredBy: 'bob' }),
  );
  return { q, s };
}

describe('handleApprovalRequest', () => {
  afterEach(() => sfn.reset());

  it('answers a Slack button press with exactly one SendTaskSuccess and records the decision', async () => {
    // Arrange
    sfn.on(SendTaskSuccessCommand).resolves({});
    const q = parkedQuestion();
    const s = await setup(await storeWith(q));

    // Act
    const response = await handleApprovalRequest(s.deps, slackRequest(buttonPress(q.approvalId, '10s')));

    // Assert
    expect(response.statusCode).toBe(200);
    const calls = sfn.commandCalls(SendTaskSuccessCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({
      taskToken: TASK_TOKEN,
      output: JSON.stringify({ answer: '10s', answeredBy: 'alice (Slack U1)' }),
    });
    expect((await s.store.get(q.approvalId)).decision).toMatchObject({
      answer: '10s',
      answeredBy: 'alice (Slack U1)',
      via: 'slack',
      outcome: 'delivered',
    });
    expect(JSON.stringify([response, s.logs])).not.toContain(TASK_TOKEN);
  });

  it('answers a signed webhook answer the same way, reading the reply as Nomad does', async () => {
    // Arrange
    sfn.on(SendTaskSuccessCommand).resolves({});
    const q = parkedQuestion();
    const s = await setup(await storeWith(q));

    // Act
    const response = await handleApprovalRequest(
      s.deps,
      webhookRequest({ approvalId: q.approvalId, answer: ' Y ', answeredBy: 'bob' }),
    );

    // Assert
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ outcome: 'decided', decision: { answer: 'yes' } });
    expect(sfn.commandCalls(SendTaskSuccessCommand)).toHaveLength(1);
  });

  const refused: {
    name: string;
    request: (id: string) => ApprovalHttpRequest;
    status: number;
    reason: string;
  }[] = [
    {
      name: 'a Slack request signed with the wrong secret',
      request: (id) => slackRequest(buttonPress(id, 'yes'), NOW_S, 'not-the-signing-secret'),
      status: 401,
      reason: 'ApprovalSignatureError',
    },
    {
      name: 'a Slack request with a stale timestamp (6 minutes old)',
      request: (id) => slackRequest(buttonPress(id, 'yes'), NOW_S - 6 * 60),
      status: 401,
      reason: 'ApprovalSignatureError',
    },
    {
      name: 'a webhook key that may only receive',
      request: (id) => webhookRequest({ approvalId: id, answer: 'yes', answeredBy: 'bob' }, 'notify'),
      status: 403,
      reason: 'AnswererNotAllowedError',
    },
    {
      name: 'a webhook key nobody configured',
      request: (id) => webhookRequest({ approvalId: id, answer: 'yes', answeredBy: 'bob' }, 'stranger'),
      status: 401,
      reason: 'ApprovalSignatureError',
    },
    {
      name: 'a malformed Slack body (no payload field)',
      request: () => {
        const body = 'foo=bar';
        return { method: 'POST', path: APPROVAL_ROUTES.slack, headers: slackHeaders(body, NOW_S), body };
      },
      status: 400,
      reason: 'MalformedApprovalRequestError',
    },
    {
      name: 'a malformed webhook body (not JSON)',
      request: () => webhookRequest('{"approvalId":'),
      status: 400,
      reason: 'MalformedApprovalRequestError',
    },
    {
      name: 'a webhook answer without answeredBy',
      request: (id) => webhookRequest({ approvalId: id, answer: 'yes' }),
      status: 400,
      reason: 'MalformedApprovalRequestError',
    },
    {
      name: 'an unknown approval id',
      request: () => webhookRequest({ approvalId: newApprovalId(), answer: 'yes', answeredBy: 'bob' }),
      status: 404,
      reason: 'ApprovalNotFoundError',
    },
    {
      name: 'an approval id that is not one (the replay guard prefix)',
      request: () => webhookRequest({ approvalId: 'seen:slack:v0=abc', answer: 'yes', answeredBy: 'bob' }),
      status: 404,
      reason: 'ApprovalNotFoundError',
    },
    {
      name: 'a reply Nomad would not accept',
      request: (id) => webhookRequest({ approvalId: id, answer: 'maybe', answeredBy: 'bob' }),
      status: 422,
      reason: 'InvalidApprovalAnswerError',
    },
  ];

  it.each(refused)('refuses $name: status $status, nothing changed, no Step Functions call', async (row) => {
    // Arrange
    const q = parkedQuestion();
    const s = await setup(await storeWith(q));

    // Act
    const response = await handleApprovalRequest(s.deps, row.request(q.approvalId));

    // Assert
    expect(response.statusCode).toBe(row.status);
    expect(JSON.parse(response.body)).toMatchObject({ error: row.reason });
    expect(sfn.commandCalls(SendTaskSuccessCommand)).toHaveLength(0);
    expect((await s.store.get(q.approvalId)).decision).toBeUndefined();
    expect(s.logs).toEqual([
      JSON.stringify({
        message: 'Answer refused',
        route: row.request(q.approvalId).path,
        reason: row.reason,
        status: row.status,
      }),
    ]);
    const everything = JSON.stringify([response, s.logs]);
    for (const secret of [TASK_TOKEN, SIGNING_SECRET, ...Object.values(WEBHOOK_KEYS)]) {
      expect(everything).not.toContain(secret);
    }
  });

  it('refuses a replayed Slack request once its question is closed: the copy changes nothing', async () => {
    // Arrange
    sfn.on(SendTaskSuccessCommand).resolves({});

    // Act
    const {
      s,
      first,
      second: replay,
    } = await sendTwice((q) => slackRequest(buttonPress(q.approvalId, 'yes')));

    // Assert
    expect([first.statusCode, replay.statusCode]).toEqual([200, 200]);
    expect(s.told.at(-1)).toEqual({
      channel: 'C1',
      user: 'U1',
      text: 'This question is closed: it was already answered.',
    });
    expect(sfn.commandCalls(SendTaskSuccessCommand)).toHaveLength(1);
  });

  it('refuses a replayed webhook answer once its question is closed (409)', async () => {
    // Arrange
    sfn.on(SendTaskSuccessCommand).resolves({});

    // Act
    const { first, second: replay } = await sendTwice(bobSaysYes);

    // Assert
    expect([first.statusCode, replay.statusCode]).toEqual([200, 409]);
    expect(JSON.parse(replay.body)).toMatchObject({ error: 'ApprovalReplayError' });
    expect(sfn.commandCalls(SendTaskSuccessCommand)).toHaveLength(1);
  });

  it('accepts the same signed webhook answer again after a 503 "answer again", while the question is open', async () => {
    // Arrange: Step Functions is throttled once, so the first try reopens the question.
    sfn
      .on(SendTaskSuccessCommand)
      .rejectsOnce(Object.assign(new Error('slow down'), { name: 'ThrottlingException' }))
      .resolves({});

    // Act: the sender retries the identical request, signature and all.
    const { q, s, first, second: retried } = await sendTwice(bobSaysYes);

    // Assert
    expect([first.statusCode, retried.statusCode]).toEqual([503, 200]);
    expect(JSON.parse(retried.body)).toMatchObject({ outcome: 'decided' });
    expect(sfn.commandCalls(SendTaskSuccessCommand)).toHaveLength(2);
    expect((await s.store.get(q.approvalId)).decision).toMatchObject({ answer: 'yes', outcome: 'delivered' });
  });

  it.each([
    {
      name: 'a user not on the allow-list',
      who: { user: 'U2', team: 'T1', channel: 'C1' },
      over: {},
      text: 'You are not allowed to answer nomad-restart questions.',
    },
    {
      name: 'a team not on the allow-list',
      who: { user: 'U1', team: 'T9', channel: 'C1' },
      over: {},
      text: 'You are not allowed to answer nomad-restart questions.',
    },
    {
      name: 'a question past its timeout',
      who: { user: 'U1', team: 'T1', channel: 'C1' },
      over: { timesOutAt: NOW_S - 60 },
      text: 'This question has expired and can no longer be answered.',
    },
    {
      name: 'a question whose item is gone',
      who: { user: 'U1', team: 'T1', channel: 'C1' },
      over: { approvalId: newApprovalId() },
      text: 'This question has expired and can no longer be answered.',
    },
  ])('tells a refused Slack user privately why ($name), nothing changed', async ({ who, over, text }) => {
    // Arrange
    const q = parkedQuestion(over.timesOutAt === undefined ? {} : { timesOutAt: over.timesOutAt });
    const s = await setup(await storeWith(q));

    // Act
    const response = await handleApprovalRequest(
      s.deps,
      slackRequest(buttonPress(over.approvalId ?? q.approvalId, 'yes', who)),
    );

    // Assert
    expect(response.statusCode).toBe(200);
    expect(s.told).toEqual([{ channel: 'C1', user: who.user, text }]);
    expect(sfn.commandCalls(SendTaskSuccessCommand)).toHaveLength(0);
    expect((await s.store.get(q.approvalId)).decision).toBeUndefined();
  });

  it('keeps an answer taken when Slack cannot take the private message, and logs it', async () => {
    // Arrange: someone decided first; telling this user fails (Slack rate-limits it).
    const { q, s } = await decidedByBob();
    const deps = {
      ...s.deps,
      slack: {
        ...(s.deps.slack as NonNullable<EndpointDeps['slack']>),
        api: {
          tellPrivately: async () => {
            throw Object.assign(new Error('rate limited'), { name: 'RateLimitedError' });
          },
          openModal: async () => undefined,
        },
      },
    };

    // Act
    const response = await handleApprovalRequest(deps, slackRequest(buttonPress(q.approvalId, 'yes')));

    // Assert
    expect(response.statusCode).toBe(200);
    expect(s.logs.at(-1)).toBe(
      JSON.stringify({ message: 'Private message not sent', reason: 'RateLimitedError' }),
    );
    expect((await s.store.get(q.approvalId)).decision).toMatchObject({ answer: 'no', outcome: 'delivered' });
  });

  it('tells a later answerer who decided what and when, with no Step Functions call', async () => {
    // Arrange
    const { q, s } = await decidedByBob();
    sfn.resetHistory();

    // Act
    const later = await handleApprovalRequest(s.deps, slackRequest(buttonPress(q.approvalId, 'yes')));

    // Assert
    expect(later.statusCode).toBe(200);
    expect(sfn.commandCalls(SendTaskSuccessCommand)).toHaveLength(0);
    expect(s.told).toEqual([
      {
        channel: 'C1',
        user: 'U1',
        text: 'Already decided: bob (webhook key ops) answered "no" at 2023-11-14 22:15:00 UTC (webhook).',
      },
    ]);
  });

  it.each(['TaskTimedOut', 'InvalidToken', 'TaskDoesNotExist'])(
    'says "already finished" when Step Functions answers %s, never a 5xx',
    async (code) => {
      // Arrange
      sfn.on(SendTaskSuccessCommand).rejects(Object.assign(new Error('closed'), { name: code }));
      const q = parkedQuestion();
      const s = await setup(await storeWith(q));

      // Act
      const response = await handleApprovalRequest(s.deps, bobSaysYes(q));

      // Assert
      expect(response.statusCode).toBe(410);
      expect(JSON.parse(response.body).message).toBe(
        'bob (webhook key ops) answered "yes" at 2023-11-14 22:15:00 UTC (webhook), but the run had already finished: nothing changed.',
      );
      expect((await s.store.get(q.approvalId)).decision?.outcome).toBe('run-finished');
    },
  );

  it('reopens the question when Step Functions is throttled, and says to answer again (503)', async () => {
    // Arrange
    sfn
      .on(SendTaskSuccessCommand)
      .rejects(Object.assign(new Error('slow down'), { name: 'ThrottlingException' }));
    const q = parkedQuestion();
    const s = await setup(await storeWith(q));

    // Act
    const response = await handleApprovalRequest(s.deps, bobSaysYes(q));

    // Assert
    expect(response.statusCode).toBe(503);
    expect((await s.store.get(q.approvalId)).decision).toBeUndefined();
  });

  it("opens the typed-answer modal and takes a typed wait, showing Nomad's refusal of junk in the modal", async () => {
    // Arrange
    sfn.on(SendTaskSuccessCommand).resolves({});
    const q = parkedQuestion();
    const s = await setup(await storeWith(q));
    const open = {
      ...buttonPress(q.approvalId, 'typed'),
      actions: [{ action_id: 'answer-typed', block_id: `approval:${q.approvalId}`, value: 'typed' }],
    };
    const submit = (value: string) => ({
      type: 'view_submission',
      user: { id: 'U1', username: 'alice' },
      team: { id: 'T1' },
      view: {
        callback_id: 'answer-typed',
        private_metadata: JSON.stringify({ approvalId: q.approvalId, channelId: 'C1' }),
        state: { values: { reply: { reply: { value } } } },
      },
    });

    // Act
    const opened = await handleApprovalRequest(s.deps, slackRequest(open));
    const junk = await handleApprovalRequest(s.deps, slackRequest(submit('soon')));
    const typed = await handleApprovalRequest(s.deps, slackRequest(submit('1m30s')));

    // Assert
    expect(opened.statusCode).toBe(200);
    expect(s.modals).toHaveLength(1);
    expect(JSON.parse(junk.body)).toEqual({
      response_action: 'errors',
      errors: { reply: 'Invalid answer "soon": the question takes Y/n/<wait duration>' },
    });
    expect(JSON.parse(typed.body)).toEqual({});
    expect(sfn.commandCalls(SendTaskSuccessCommand)).toHaveLength(1);
    expect((await s.store.get(q.approvalId)).decision?.answer).toBe('1m30s');
  });
});
