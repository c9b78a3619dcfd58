/**
 * Who may answer. Slack: users and/or the channels the question is answered from, optionally
 * limited to teams (workspaces); the webhook: key ids. With nothing configured nobody may answer:
 * a signing secret alone proves the request came through the app, not who is behind it.
 */
import { AnswererNotAllowedError } from './errors';
import type { SlackActor } from './slack-interaction';

/** The Slack allow-list: every list given must contain the answerer's value. */
export interface SlackAllowList {
  readonly userIds?: readonly string[];
  readonly channelIds?: readonly string[];
  readonly teamIds?: readonly string[];
}

const refuses = (list: readonly string[] | undefined, value: string) =>
  list !== undefined && !list.includes(value);

/**
 * Refuses an answerer the allow-list does not name.
 * @throws AnswererNotAllowedError
 */
export function checkSlackActor(allow: SlackAllowList, actor: SlackActor): void {
  if ((allow.userIds?.length ?? 0) === 0 && (allow.channelIds?.length ?? 0) === 0) {
    throw new AnswererNotAllowedError(
      'No Slack user or channel is allowed to answer: configure an allow-list',
    );
  }
  if (refuses(allow.teamIds, actor.teamId)) {
    throw new AnswererNotAllowedError(`Slack team ${actor.teamId} may not answer nomad-restart questions`);
  }
  if (refuses(allow.userIds, actor.userId)) {
    throw new AnswererNotAllowedError(`Slack user ${actor.userId} may not answer nomad-restart questions`);
  }
  if (refuses(allow.channelIds, actor.channelId)) {
    throw new AnswererNotAllowedError(
      `nomad-restart questions may not be answered from Slack channel ${actor.channelId}`,
    );
  }
}

/**
 * Refuses a webhook key that signs correctly but may not answer (it may only receive).
 * @throws AnswererNotAllowedError
 */
export function checkWebhookKey(allowedKeyIds: readonly string[], keyId: string): void {
  if (!allowedKeyIds.includes(keyId)) {
    throw new AnswererNotAllowedError(`Webhook key "${keyId}" may not answer nomad-restart questions`);
  }
}
