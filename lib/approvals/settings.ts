/**
 * The chat channels' settings as the construct passes them to the notifiers and the endpoint:
 * environment variables holding ids, URLs and secret ARNs (never a secret value), read back here
 * with the secrets fetched through the caller's reader (Secrets Manager in a Lambda). A notifier
 * only posts: it gets neither the Slack signing secret nor the allow-lists, which only the
 * endpoint needs.
 */
import type { SlackAllowList } from './allow-list';
import { ApprovalSettingsError } from './errors';

/** The variables, by setting. Lists are comma-separated. */
export const APPROVAL_ENV = {
  slackBotTokenSecretArn: 'SLACK_BOT_TOKEN_SECRET_ARN',
  slackSigningSecretArn: 'SLACK_SIGNING_SECRET_ARN',
  slackChannelId: 'SLACK_CHANNEL_ID',
  slackApiUrl: 'SLACK_API_URL',
  slackAllowedUserIds: 'SLACK_ALLOWED_USER_IDS',
  slackAllowedChannelIds: 'SLACK_ALLOWED_CHANNEL_IDS',
  slackAllowedTeamIds: 'SLACK_ALLOWED_TEAM_IDS',
  webhookUrl: 'WEBHOOK_URL',
  webhookSecretArn: 'WEBHOOK_SECRET_ARN',
  webhookKeyId: 'WEBHOOK_KEY_ID',
  webhookAnswerKeyIds: 'WEBHOOK_ANSWER_KEY_IDS',
  webhookAnswerUrl: 'WEBHOOK_ANSWER_URL',
  emailTopicArn: 'EMAIL_TOPIC_ARN',
  /**
   * The one-job state machine, on the approval endpoint: a fleet's jobs' pause questions are listed
   * under it when the fleet is resumed or stopped (lib/approvals/fleet-control.ts).
   */
  restartStateMachineArn: 'RESTART_STATE_MACHINE_ARN',
  /** `on` on the steps that record a run's progress for its live thread (lib/approvals/run-thread.ts). */
  runThread: 'RUN_THREAD',
} as const;

/** Reads a secret's string value by ARN. */
export type SecretReader = (arn: string) => Promise<string>;

type Env = Readonly<Record<string, string | undefined>>;

const value = (env: Env, name: string) => {
  const v = env[name];
  return v === undefined || v === '' ? undefined : v;
};
const list = (env: Env, name: string) =>
  value(env, name)
    ?.split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** Slack as a notifier needs it: the bot token fetched, and where to post. */
export interface SlackPostSettings {
  readonly botToken: string;
  readonly channelId: string;
  readonly apiUrl?: string;
}

/** Slack as the endpoint needs it besides: the signing secret fetched, and who may answer. */
export interface SlackSettings extends SlackPostSettings {
  readonly signingSecret: string;
  readonly allow: SlackAllowList;
}

/** The webhook as configured: its keys fetched. */
export interface WebhookSettings {
  readonly url: string;
  /** Secrets by key id (the secret is JSON `{"<key id>": "<secret>", ...}`). */
  readonly keys: Readonly<Record<string, string>>;
  /** The key that signs deliveries. */
  readonly keyId: string;
  /** The keys that may answer. */
  readonly answerKeyIds: readonly string[];
  readonly answerUrl?: string;
}

/** Every configured channel as a notifier posts to it; an absent one is off. */
export interface ChatSettings {
  readonly slack?: SlackPostSettings;
  readonly webhook?: WebhookSettings;
  readonly emailTopicArn?: string;
}

/** Every configured channel as the endpoint verifies answers from it. */
export interface ApprovalSettings extends ChatSettings {
  readonly slack?: SlackSettings;
}

function decodeKeys(text: string, arn: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch (error) {
    throw new ApprovalSettingsError(`Secret "${arn}" is not JSON`, { cause: error });
  }
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    Array.isArray(parsed) ||
    !Object.values(parsed).every((s) => typeof s === 'string' && s !== '')
  ) {
    throw new ApprovalSettingsError(`Secret "${arn}" must be a JSON object of key id to secret strings`);
  }
  return parsed as Record<string, string>;
}

/**
 * Reads what a notifier needs to post (the question notifier, the run-end notifier): the Slack
 * bot token and channel, the webhook and its keys, the topic. Fetches only the secrets of
 * configured channels, and never the signing secret.
 */
export async function chatSettingsFromEnv(env: Env, readSecret: SecretReader): Promise<ChatSettings> {
  const E = APPROVAL_ENV;
  const tokenArn = value(env, E.slackBotTokenSecretArn);
  const channelId = value(env, E.slackChannelId);
  const webhookUrl = value(env, E.webhookUrl);
  const webhookArn = value(env, E.webhookSecretArn);
  const keyId = value(env, E.webhookKeyId);
  const topic = value(env, E.emailTopicArn);
  const apiUrl = value(env, E.slackApiUrl);
  const answerUrl = value(env, E.webhookAnswerUrl);
  const withSlack = tokenArn !== undefined && channelId !== undefined;
  const withWebhook = webhookUrl !== undefined && webhookArn !== undefined && keyId !== undefined;
  // In parallel: a cold start must not wait for one secret after another.
  const [botToken, webhookKeys] = await Promise.all([
    withSlack ? readSecret(tokenArn) : undefined,
    withWebhook ? readSecret(webhookArn) : undefined,
  ]);
  const slack: SlackPostSettings | undefined =
    !withSlack || botToken === undefined
      ? undefined
      : { botToken, channelId, ...(apiUrl === undefined ? {} : { apiUrl }) };
  const webhook: WebhookSettings | undefined =
    !withWebhook || webhookKeys === undefined
      ? undefined
      : {
          url: webhookUrl,
          keys: decodeKeys(webhookKeys, webhookArn),
          keyId,
          answerKeyIds: list(env, E.webhookAnswerKeyIds) ?? [],
          ...(answerUrl === undefined ? {} : { answerUrl }),
        };
  return {
    ...(slack === undefined ? {} : { slack }),
    ...(webhook === undefined ? {} : { webhook }),
    ...(topic === undefined ? {} : { emailTopicArn: topic }),
  };
}

/**
 * Reads what the endpoint needs to verify answers: the channels, plus Slack's signing secret and
 * allow-lists (Slack counts as configured only with its signing secret).
 */
export async function approvalSettingsFromEnv(env: Env, readSecret: SecretReader): Promise<ApprovalSettings> {
  const E = APPROVAL_ENV;
  const signingArn = value(env, E.slackSigningSecretArn);
  // Without its signing secret Slack is off here, and its bot token is not even fetched. The
  // signing secret is read alongside the others.
  const [{ slack, ...others }, signingSecret] = await Promise.all([
    chatSettingsFromEnv(
      signingArn === undefined ? { ...env, [E.slackBotTokenSecretArn]: undefined } : env,
      readSecret,
    ),
    signingArn === undefined ||
    value(env, E.slackBotTokenSecretArn) === undefined ||
    value(env, E.slackChannelId) === undefined
      ? undefined
      : readSecret(signingArn),
  ]);
  return {
    ...others,
    ...(slack === undefined || signingSecret === undefined
      ? {}
      : {
          slack: {
            ...slack,
            signingSecret,
            allow: {
              ...optionalList('userIds', list(env, E.slackAllowedUserIds)),
              ...optionalList('channelIds', list(env, E.slackAllowedChannelIds)),
              ...optionalList('teamIds', list(env, E.slackAllowedTeamIds)),
            },
          },
        }),
  };
}

function optionalList<K extends string>(key: K, values: string[] | undefined): Partial<Record<K, string[]>> {
  return values === undefined ? {} : ({ [key]: values } as Record<K, string[]>);
}
