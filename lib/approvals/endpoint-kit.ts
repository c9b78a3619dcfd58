/**
 * What every route of the approval endpoint shares: the JSON response, the decision id a signed
 * request decides a question under, the decision in a sentence, and the private Slack message.
 */
import { createHash } from 'node:crypto';
import type { DecideOutcome } from './decide';
import type { EndpointDeps } from './endpoint';
import { decisionLine } from './question-message';
import type { SlackActor } from './slack-interaction';

/** The endpoint's answer. */
export interface ApprovalHttpResponse {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** A JSON response. */
export const json = (statusCode: number, body: unknown): ApprovalHttpResponse => ({
  statusCode,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/**
 * The decision id of one signed request: the same for each copy of it, so a sender that retries
 * it (after a 503 "answer again", or a reply it never got) gives the same answer again, which
 * the one decision delivers at most once.
 */
export const decisionIdOf = (signature: string) =>
  `sig-${createHash('sha256').update(signature).digest('hex').slice(0, 32)}`;

/** A decision as the one who asked is told it. */
export function outcomeText(outcome: DecideOutcome): string {
  return outcome.kind === 'already-decided'
    ? `Already decided: ${decisionLine(outcome.decision)}`
    : decisionLine(outcome.decision);
}

/** A private message that must not undo the answer when Slack cannot take it: logged instead. */
export async function tellSafely(
  deps: EndpointDeps,
  slack: NonNullable<EndpointDeps['slack']>,
  actor: SlackActor,
  text: string,
): Promise<void> {
  try {
    await slack.api.tellPrivately(actor.channelId, actor.userId, text);
  } catch (error) {
    deps.log.warn('Private message not sent', { reason: error instanceof Error ? error.name : 'unknown' });
  }
}
