/**
 * What the approval notifier and endpoint are built from in a Lambda: the channel settings from
 * the environment with their secrets from Secrets Manager (Powertools, cached), and the channel
 * senders. Secrets are read on first use and never logged.
 */
import type { ChatChannel } from '../../lib/approvals/message';
import {
  type ApprovalSettings,
  approvalSettingsFromEnv,
  type ChatSettings,
  chatSettingsFromEnv,
} from '../../lib/approvals/settings';
import { SlackChannel } from '../../lib/approvals/slack-channel';
import { SnsChannel } from '../../lib/approvals/sns-channel';
import { WebhookChannel } from '../../lib/approvals/webhook-channel';
import { awsSdkClient } from '../../lib/stores/aws-client-config';
import { HandlerConfigError } from './errors';
import { secretsProvider } from './secrets-provider';

/** How long a fetched secret is reused, in seconds: a rotated one is picked up within this. */
const SECRET_MAX_AGE_SECONDS = 300;

type SecretsProvider = import('@aws-lambda-powertools/parameters/secrets').SecretsProvider;
let provider: SecretsProvider | undefined;

async function readSecret(arn: string): Promise<string> {
  provider ??= await secretsProvider();
  const secret = await provider.get(arn, { maxAge: SECRET_MAX_AGE_SECONDS });
  if (typeof secret !== 'string' || secret === '') {
    throw new HandlerConfigError(`Secret "${arn}" is empty or not a string`);
  }
  return secret;
}

/** The configured channels' settings as the endpoint verifies answers, secrets included. */
export function approvalSettings(env: NodeJS.ProcessEnv = process.env): Promise<ApprovalSettings> {
  return approvalSettingsFromEnv(env, readSecret);
}

/** The configured channels' settings as a notifier posts to them (no signing secret). */
export function chatSettings(env: NodeJS.ProcessEnv = process.env): Promise<ChatSettings> {
  return chatSettingsFromEnv(env, readSecret);
}

/**
 * A sender per configured channel. `rejectRateLimited`: Slack's 429 fails a call with its
 * `Retry-After` instead of being waited out (the stream-driven notifier, whose live-message edits
 * are deferred and whose other calls the stream retries).
 */
export async function chatChannels(
  settings: ChatSettings,
  { rejectRateLimited = false }: { readonly rejectRateLimited?: boolean } = {},
): Promise<ChatChannel[]> {
  const channels: ChatChannel[] = [];
  const { slack, webhook, emailTopicArn } = settings;
  if (slack !== undefined) {
    channels.push(
      new SlackChannel({
        botToken: slack.botToken,
        channelId: slack.channelId,
        rejectRateLimited,
        ...(slack.apiUrl === undefined ? {} : { slackApiUrl: slack.apiUrl }),
      }),
    );
  }
  if (webhook !== undefined) {
    const secret = webhook.keys[webhook.keyId];
    if (secret === undefined)
      throw new HandlerConfigError(`The webhook secret has no key "${webhook.keyId}"`);
    channels.push(
      new WebhookChannel({
        url: webhook.url,
        keyId: webhook.keyId,
        secret,
        ...(webhook.answerUrl === undefined ? {} : { answerUrl: webhook.answerUrl }),
      }),
    );
  }
  if (emailTopicArn !== undefined) {
    const { SNSClient } = await import('@aws-sdk/client-sns');
    channels.push(new SnsChannel(awsSdkClient(SNSClient, {}), emailTopicArn));
  }
  return channels;
}
