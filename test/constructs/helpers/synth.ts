import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import {
  NomadRestartStack,
  type NomadRestartStackProps,
  type SlackApprovalReferences,
  type WebhookApprovalReferences,
} from '../../../lib/constructs/nomad-restart-stack';
import { type Asl, aslOf } from './asl';

/** Secret ARNs used by the test stacks (fake, well-formed). */
export const TOKEN_SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:nomad-token-AbCdEf';
export const TLS_SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:nomad-tls-GhIjKl';

/** The ARN of the secret `name` in the test account (complete, with Secrets Manager's suffix). */
export const secretArn = (name: string) =>
  `arn:aws:secretsmanager:us-east-1:123456789012:secret:${name}-AbCdEf`;

/** Slack approvals as the stack takes them: bot token and signing secret by ARN, channel C123, U1 answers. */
export const slackApprovalReferences = (
  over: Partial<SlackApprovalReferences> = {},
): SlackApprovalReferences => ({
  botTokenSecret: { completeArn: secretArn('slack-bot') },
  signingSecret: { completeArn: secretArn('slack-signing') },
  channelId: 'C123',
  allowedUserIds: ['U1'],
  ...over,
});

/** Webhook approvals as the stack takes them: chat.example.com, its secret by ARN, key "ops". */
export const webhookApprovalReferences = (
  over: Partial<WebhookApprovalReferences> = {},
): WebhookApprovalReferences => ({
  url: 'https://chat.example.com/hook',
  secret: { completeArn: secretArn('webhook') },
  keyId: 'ops',
  ...over,
});

/** The customer-managed KMS key the construct tests give the chat secrets. */
export const CHAT_SECRETS_KEY = 'arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';

/**
 * An app with the stack `id` and every approval channel (Slack and the webhook as above, e-mail
 * on `topicArn`, the chat secrets under CHAT_SECRETS_KEY), synthesized without bundling; `over`
 * adds or replaces props.
 */
export function synthWithApprovalChannels(
  id: string,
  topicArn: string,
  over: Partial<NomadRestartStackProps> = {},
): { app: App; template: Template } {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new NomadRestartStack(app, id, {
    env: { account: '123456789012', region: 'us-east-1' },
    nomadAddress: 'https://nomad.internal:4646',
    slackApprovals: slackApprovalReferences(),
    webhookApprovals: webhookApprovalReferences(),
    approvalEmailTopicArn: topicArn,
    approvalSecretsKmsKeyArn: CHAT_SECRETS_KEY,
    ...over,
  });
  return { app, template: Template.fromStack(stack) };
}

/**
 * One app with the stack, synthesized once per test file. Bundling is skipped (the
 * `aws:cdk:bundling-stacks` context): `npx cdk synth` in CI bundles for real, and skipping it here
 * keeps each synthesizing test file to a few seconds on two shared cores.
 */
export function synthStack(): { app: App; stack: NomadRestartStack; template: Template } {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new NomadRestartStack(app, 'NomadRestartTest', {
    env: { account: '123456789012', region: 'us-east-1' },
    nomadAddress: 'https://nomad.internal:4646',
    nomadTokenSecret: { completeArn: TOKEN_SECRET_ARN },
    nomadTlsSecret: { completeArn: TLS_SECRET_ARN },
    batchesPerExecution: 50,
  });
  return { app, stack, template: Template.fromStack(stack) };
}

/**
 * The ASL of the stack's state machine whose logical id starts with `logicalIdPrefix` (the
 * one-job one by default; the fleet's is `FleetStateMachine`), as JSON with fake ARNs in place of tokens.
 */
export function extractAsl(template: Template, logicalIdPrefix = 'RestartStateMachine'): Asl {
  return aslOf(template.toJSON(), logicalIdPrefix);
}
