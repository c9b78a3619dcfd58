/**
 * What a function that posts to the chat channels gets: the channels' settings as environment
 * variables (ids, URLs and secret ARNs, never a secret value), read access to the secrets it
 * posts with, publish on the topic, and decryption of the secrets through Secrets Manager when a
 * customer-managed key encrypts them. Shared by the question notifier and the run-end notifier.
 */
import { Stack } from 'aws-cdk-lib';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sns from 'aws-cdk-lib/aws-sns';
import { APPROVAL_ENV } from '../../approvals/settings';
import { grantDecryptThroughSecretsManager, grantGetSecretValue } from './secrets-key-grant';

/** The channels as a poster sees them (the approval channels' props are one). */
export interface PostingChannels {
  readonly slack?: {
    readonly botTokenSecret: secretsmanager.ISecret;
    readonly channelId: string;
    readonly slackApiUrl?: string;
  };
  readonly webhook?: {
    readonly url: string;
    readonly secret: secretsmanager.ISecret;
    readonly keyId: string;
  };
  readonly emailTopic?: sns.ITopic;
  readonly secretsKey?: kms.IKey;
}

/** The environment variables that name the channels (lib/approvals/settings.ts reads them). */
export function postingEnvironment(channels: PostingChannels): Record<string, string> {
  const E = APPROVAL_ENV;
  const env: Record<string, string> = {};
  if (channels.slack !== undefined) {
    env[E.slackBotTokenSecretArn] = channels.slack.botTokenSecret.secretArn;
    env[E.slackChannelId] = channels.slack.channelId;
    if (channels.slack.slackApiUrl !== undefined) env[E.slackApiUrl] = channels.slack.slackApiUrl;
  }
  if (channels.webhook !== undefined) {
    env[E.webhookUrl] = channels.webhook.url;
    env[E.webhookSecretArn] = channels.webhook.secret.secretArn;
    env[E.webhookKeyId] = channels.webhook.keyId;
  }
  if (channels.emailTopic !== undefined) env[E.emailTopicArn] = channels.emailTopic.topicArn;
  return env;
}

/** Lets `poster` read the secrets it posts with and publish on the topic. */
export function grantPosting(poster: lambda.IFunction, channels: PostingChannels): void {
  if (channels.slack !== undefined) grantGetSecretValue(poster, channels.slack.botTokenSecret);
  if (channels.webhook !== undefined) grantGetSecretValue(poster, channels.webhook.secret);
  channels.emailTopic?.grantPublish(poster);
  if (channels.secretsKey !== undefined)
    grantDecryptThroughSecretsManager(poster, channels.secretsKey, Stack.of(poster).region);
}
