/**
 * The approval endpoint's logic, behind one Lambda Function URL: Slack interactivity
 * (`POST /slack/interactions`) and webhook answers (`POST /webhook/answers`). Each request is
 * verified (signature, timestamp window), refused if seen before, read, checked against the
 * allow-list, and only then answered through the one decision function. A refused request
 * changes nothing and makes no Step Functions call.
 */
import * as z from 'zod';
import type { ReplayGuard } from '../stores/replay-guard';
import { checkSlackActor, checkWebhookKey, type SlackAllowList } from './allow-list';
import { type DecideDeps, type DecideOutcome, decideQuestion } from './decide';
import { ApprovalError, ApprovalReplayError, MalformedApprovalRequestError } from './errors';
import { decisionLine, TYPED_WAIT_HINT } from './question-message';
import { SIGNATURE_WINDOW_SECONDS, verifySlackSignature, verifyWebhookSignature } from './signatures';
import { FREE_TEXT_VIEW, typedAnswerView } from './slack-blocks';
import type { SlackChannel } from './slack-channel';
import { parseSlackInteraction, type SlackInteraction } from './slack-interaction';

/** The endpoint's paths. */
export const APPROVAL_ROUTES = { slack: '/slack/interactions', webhook: '/webhook/answers' } as const;

/** An HTTP request as the endpoint sees it: header names lower-case, the body raw (signatures cover it). */
export interface ApprovalHttpRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string;
}

/** The endpoint's answer. */
export interface ApprovalHttpResponse {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Structured log lines: ids, names and statuses only. */
export interface EndpointLog {
  info(message: string, fields: Record<string, unknown>): void;
  warn(message: string, fields: Record<string, unknown>): void;
}

/** What the endpoint works with; a channel left out is not served (404). */
export interface EndpointDeps {
  readonly decide: DecideDeps;
  readonly replays: ReplayGuard;
  readonly log: EndpointLog;
  /** Unix milliseconds. */
  readonly now: () => number;
  readonly slack?: {
    readonly signingSecret: string;
    readonly allow: SlackAllowList;
    readonly api: Pick<SlackChannel, 'tellPrivately' | 'openModal'>;
  };
  readonly webhook?: {
    /** Secrets by key id: any of them verifies a signature. */
    readonly keys: Readonly<Record<string, string>>;
    /** The key ids that may answer. */
    readonly allowedKeyIds: readonly string[];
  };
}

const json = (statusCode: number, body: unknown): ApprovalHttpResponse => ({
  statusCode,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

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
    return json(404, { message: 'Not found' });
  } catch (error) {
    if (error instanceof ApprovalError) {
      deps.log.warn('Answer refused', { route, reason: error.name, status: error.status });
      return json(error.status, { error: error.name, message: error.message });
    }
    deps.log.warn('Answer failed', { route, reason: error instanceof Error ? error.name : 'unknown' });
    return json(500, { message: 'Internal error; the question is unchanged' });
  }
}

async function refuseReplay(deps: EndpointDeps, key: string, timestamp: number): Promise<void> {
  // Past the window the timestamp check refuses it anyway; a little longer covers clock skew.
  const remembered = await deps.replays.firstSighting(key, timestamp + 2 * SIGNATURE_WINDOW_SECONDS);
  if (!remembered) throw new ApprovalReplayError();
}

function outcomeText(outcome: DecideOutcome): string {
  return outcome.kind === 'already-decided'
    ? `Already decided: ${decisionLine(outcome.decision)}`
    : decisionLine(outcome.decision);
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
  await refuseReplay(deps, `slack:${signature}`, timestamp);
  const interaction: SlackInteraction = parseSlackInteraction(request.body);
  checkSlackActor(slack.allow, interaction.actor);
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
  await slack.api.tellPrivately(actor.channelId, actor.userId, outcomeText(outcome));
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
  await refuseReplay(deps, `webhook:${signature}`, timestamp);
  let body: unknown;
  try {
    body = JSON.parse(request.body) as unknown;
  } catch (error) {
    throw new MalformedApprovalRequestError('Webhook answer is not JSON', { cause: error });
  }
  const parsed = webhookAnswer.safeParse(body);
  if (!parsed.success) {
    throw new MalformedApprovalRequestError(
      'Webhook answer must be {"approvalId": string, "answer": string, "answeredBy": string}',
    );
  }
  checkWebhookKey(webhook.allowedKeyIds, keyId);
  const outcome = await decideQuestion(deps.decide, {
    approvalId: parsed.data.approvalId,
    reply: parsed.data.answer,
    answeredBy: `${parsed.data.answeredBy} (webhook key ${keyId})`,
    via: 'webhook',
  });
  deps.log.info('Answer handled', {
    approvalId: parsed.data.approvalId,
    outcome: outcome.kind,
    via: 'webhook',
  });
  const status = outcome.kind === 'decided' ? 200 : outcome.kind === 'already-decided' ? 409 : 410;
  return json(status, { outcome: outcome.kind, decision: outcome.decision, message: outcomeText(outcome) });
}
