/**
 * The approval endpoint's logic, behind one Lambda Function URL: Slack interactivity
 * (`POST /slack/interactions`) and webhook answers (`POST /webhook/answers`). Each request is
 * verified (signature, timestamp window), read, refused if seen before while its question is
 * closed, checked against the allow-list, and only then answered through the one decision
 * function. A refused request changes nothing and makes no Step Functions call; a refused Slack
 * user is told why in a private message. Slack wants its answer within 3 seconds
 * (https://api.slack.com/interactivity/handling#acknowledgment_response): every call made before
 * it is short and never waits out a rate limit (the deps' clients are built so).
 */
import * as z from 'zod';
import { checkSlackActor, checkWebhookKey } from './allow-list';
import { handleSlackControl, handleWebhookRequest } from './control-endpoint';
import { type DecideOutcome, decideQuestion, isOpenFor } from './decide';
import {
  type ApprovalHttpRequest,
  type ApprovalHttpResponse,
  decisionIdOf,
  type EndpointDeps,
  isFirstSighting,
  json,
  outcomeText,
  readWebhookJson,
  refusalStatus,
  type SignedRequest,
  tellSafely,
} from './endpoint-kit';
import {
  AnswererNotAllowedError,
  ApprovalError,
  ApprovalExpiredError,
  ApprovalNotFoundError,
  ApprovalReplayError,
} from './errors';
import { TYPED_WAIT_HINT } from './question-message';
import { verifySlackSignature, verifyWebhookSignature } from './signatures';
import { FREE_TEXT_VIEW, typedAnswerView } from './slack-blocks';
import { parseSlackInteraction, type QuestionInteraction, type SlackInteraction } from './slack-interaction';

export type { ApprovalHttpRequest, ApprovalHttpResponse, EndpointDeps, EndpointLog } from './endpoint-kit';

/** The endpoint's paths. */
export const APPROVAL_ROUTES = {
  slack: '/slack/interactions',
  webhook: '/webhook/answers',
  /** Run control (`{"runId", "request": "pause"|"resume"|"stop", "requestedBy"}`), signed as answers are. */
  webhookRequests: '/webhook/requests',
} as const;

/** Handles one request; never throws. */
export async function handleApprovalRequest(
  deps: EndpointDeps,
  request: ApprovalHttpRequest,
): Promise<ApprovalHttpResponse> {
  const route = request.path;
  try {
    if (request.method !== 'POST') return json(405, { message: 'Only POST is accepted' });
    if (route === APPROVAL_ROUTES.slack && deps.slack !== undefined) return await handleSlack(deps, request);
    if (route === APPROVAL_ROUTES.webhook && deps.webhook !== undefined)
      return await handleWebhook(deps, request);
    if (route === APPROVAL_ROUTES.webhookRequests && deps.webhook !== undefined && deps.lock !== undefined)
      return await handleWebhookRequest(deps, request);
    return json(404, { message: 'Not found' });
  } catch (error) {
    const status = refusalStatus(error);
    if (status !== undefined && error instanceof Error) {
      deps.log.warn('Answer refused', { route, reason: error.name, status });
      return json(status, { error: error.name, message: error.message });
    }
    deps.log.warn('Answer failed', { route, reason: error instanceof Error ? error.name : 'unknown' });
    return json(500, { message: 'Internal error; the question is unchanged' });
  }
}

/**
 * Refuses a copy of a request seen before, unless its question is still open to it: a retried
 * answer is accepted until the question is decided, and never counts twice.
 */
async function refuseReplay(deps: EndpointDeps, seen: SignedRequest, approvalId: string): Promise<void> {
  const first = await isFirstSighting(deps, seen);
  if (!first && !(await isOpenFor(deps.decide.approvals, approvalId, decisionIdOf(seen.signature))))
    throw new ApprovalReplayError();
}

/** The one sentence a refused Slack user is told privately, or `undefined` for other errors. */
function refusalSentence(error: unknown): string | undefined {
  if (error instanceof AnswererNotAllowedError)
    return 'You are not allowed to answer nomad-restart questions.';
  if (error instanceof ApprovalExpiredError || error instanceof ApprovalNotFoundError)
    return 'This question has expired and can no longer be answered.';
  if (error instanceof ApprovalReplayError) return 'This question is closed: it was already answered.';
  return undefined;
}

async function handleSlack(deps: EndpointDeps, request: ApprovalHttpRequest): Promise<ApprovalHttpResponse> {
  const slack = deps.slack;
  if (slack === undefined) return json(404, { message: 'Not found' });
  const { signature, timestamp } = verifySlackSignature(
    request.headers,
    request.body,
    slack.signingSecret,
    deps.now(),
  );
  const interaction: SlackInteraction = parseSlackInteraction(request.body);
  if (interaction.kind === 'control')
    return handleSlackControl(deps, slack, interaction, { signature, timestamp, channel: 'slack' });
  try {
    await refuseReplay(deps, { signature, timestamp, channel: 'slack' }, interaction.approvalId);
    checkSlackActor(slack.allow, interaction.actor);
    return await answerSlack(deps, slack, interaction, decisionIdOf(signature));
  } catch (error) {
    const why = refusalSentence(error);
    if (why === undefined) throw error;
    // Slack shows its own generic error for anything but a 200: the user is told why instead.
    if (error instanceof ApprovalError)
      deps.log.warn('Answer refused', {
        route: APPROVAL_ROUTES.slack,
        reason: error.name,
        status: error.status,
      });
    if (interaction.kind === 'typed')
      return json(200, { response_action: 'errors', errors: { [FREE_TEXT_VIEW.blockId]: why } });
    await tellSafely(deps, slack, interaction.actor, why);
    return json(200, {});
  }
}

async function answerSlack(
  deps: EndpointDeps,
  slack: NonNullable<EndpointDeps['slack']>,
  interaction: QuestionInteraction,
  decisionId: string,
): Promise<ApprovalHttpResponse> {
  const { actor } = interaction;
  if (interaction.kind === 'open-typed') {
    await slack.api.openModal(
      interaction.triggerId,
      typedAnswerView({ approvalId: interaction.approvalId, channelId: actor.channelId }, TYPED_WAIT_HINT),
    );
    return json(200, {});
  }
  const answeredBy = `${actor.userName} (Slack ${actor.userId})`;
  let outcome: DecideOutcome;
  try {
    outcome = await decideQuestion(deps.decide, {
      approvalId: interaction.approvalId,
      reply: interaction.reply,
      answeredBy,
      via: 'slack',
      decisionId,
    });
  } catch (error) {
    // A typed answer Nomad would not take: say so in the modal, which stays open.
    if (interaction.kind === 'typed' && error instanceof ApprovalError && error.status === 422) {
      return json(200, { response_action: 'errors', errors: { [FREE_TEXT_VIEW.blockId]: error.message } });
    }
    throw error;
  }
  deps.log.info('Answer handled', {
    approvalId: interaction.approvalId,
    outcome: outcome.kind,
    via: 'slack',
  });
  if (outcome.kind === 'decided') return json(200, {});
  if (interaction.kind === 'typed') {
    return json(200, {
      response_action: 'errors',
      errors: { [FREE_TEXT_VIEW.blockId]: outcomeText(outcome) },
    });
  }
  await tellSafely(deps, slack, actor, outcomeText(outcome));
  return json(200, {});
}

const webhookAnswer = z.object({
  approvalId: z.string().min(1),
  answer: z.string(),
  answeredBy: z.string().min(1).max(200),
});

async function handleWebhook(
  deps: EndpointDeps,
  request: ApprovalHttpRequest,
): Promise<ApprovalHttpResponse> {
  const webhook = deps.webhook;
  if (webhook === undefined) return json(404, { message: 'Not found' });
  const { keyId, signature, timestamp } = verifyWebhookSignature(
    request.headers,
    request.body,
    webhook.keys,
    deps.now(),
  );
  const answer = readWebhookJson(
    request.body,
    webhookAnswer,
    'Webhook answer',
    '{"approvalId": string, "answer": string, "answeredBy": string}',
  );
  await refuseReplay(deps, { signature, timestamp, channel: 'webhook' }, answer.approvalId);
  checkWebhookKey(webhook.allowedKeyIds, keyId);
  const outcome = await decideQuestion(deps.decide, {
    approvalId: answer.approvalId,
    reply: answer.answer,
    answeredBy: `${answer.answeredBy} (webhook key ${keyId})`,
    via: 'webhook',
    decisionId: decisionIdOf(signature),
  });
  deps.log.info('Answer handled', {
    approvalId: answer.approvalId,
    outcome: outcome.kind,
    via: 'webhook',
  });
  const status = outcome.kind === 'decided' ? 200 : outcome.kind === 'already-decided' ? 409 : 410;
  return json(status, { outcome: outcome.kind, decision: outcome.decision, message: outcomeText(outcome) });
}
