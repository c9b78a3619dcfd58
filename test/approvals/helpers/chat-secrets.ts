/**
 * The chat handlers' Slack settings and secrets for the tests that run them in-process: the
 * environment the template gives them (channel C1, user U1 allowed, Slack at a fake's URL) and the
 * secrets they read from Secrets Manager (a mocked client), by the ARNs that environment names.
 */
import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { AwsClientStub } from 'aws-sdk-client-mock';
import { APPROVAL_ENV } from '../../../lib/approvals/settings';
import { SIGNING_SECRET, WEBHOOK_KEYS } from './approvals';

/** Where the handlers read each secret. */
export const SECRET_ARNS = {
  bot: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:slack-bot-AbCdEf',
  signing: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:slack-signing-AbCdEf',
  webhook: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:webhook-AbCdEf',
} as const;

/** The Slack part of the handlers' environment, Slack's API served at `apiUrl`. */
export function slackEnvironment(apiUrl: string): Record<string, string> {
  return {
    [APPROVAL_ENV.slackBotTokenSecretArn]: SECRET_ARNS.bot,
    [APPROVAL_ENV.slackSigningSecretArn]: SECRET_ARNS.signing,
    [APPROVAL_ENV.slackChannelId]: 'C1',
    [APPROVAL_ENV.slackApiUrl]: apiUrl,
    [APPROVAL_ENV.slackAllowedUserIds]: 'U1',
  };
}

/** Serves the bot token `botToken`, the signing secret and the webhook keys from `secrets`. */
export function serveChatSecrets(secrets: AwsClientStub<SecretsManagerClient>, botToken: string): void {
  secrets.on(GetSecretValueCommand, { SecretId: SECRET_ARNS.bot }).resolves({ SecretString: botToken });
  secrets
    .on(GetSecretValueCommand, { SecretId: SECRET_ARNS.signing })
    .resolves({ SecretString: SIGNING_SECRET });
  secrets
    .on(GetSecretValueCommand, { SecretId: SECRET_ARNS.webhook })
    .resolves({ SecretString: JSON.stringify(WEBHOOK_KEYS) });
}
