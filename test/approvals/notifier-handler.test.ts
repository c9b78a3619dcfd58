/**
 * The question notifier's Lambda handler with the environment the construct gives it: the bot
 * token's ARN and the channel, but not the Slack signing secret (only the endpoint verifies
 * answers). A parked question reaches a fake Slack API on 127.0.0.1.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { mockClient } from 'aws-sdk-client-mock';
import { APPROVAL_ENV } from '../../lib/approvals/settings';
import { NomadRestartStack } from '../../lib/constructs/nomad-restart-stack';
import { localStores } from '../../lib/stores/from-env';
import { functionEnvironment } from '../constructs/helpers/handler-resources';
import { secretArn, slackApprovalReferences } from '../constructs/helpers/synth';
import { lambdaContext } from '../lambdas/helpers/fixtures';
import { parkedQuestion } from './helpers/approvals';
import { fakeSlackAroundAll } from './helpers/fake-slack';

const BOT_TOKEN = 'xoxb-notifier-test-token';
const ARN = secretArn;
const secrets = mockClient(SecretsManagerClient);
type Handler = (event: unknown, context: unknown) => Promise<{ updated: number }>;

process.env['POWERTOOLS_LOG_LEVEL'] = 'SILENT';

const slack = fakeSlackAroundAll(BOT_TOKEN);
let environment: Record<string, string>;

beforeAll(async () => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new NomadRestartStack(app, 'NotifierEnvTest', {
    env: { account: '123456789012', region: 'us-east-1' },
    nomadAddress: 'https://nomad.internal:4646',
    slackApprovals: slackApprovalReferences({ slackApiUrl: slack.apiUrl }),
  });
  environment = functionEnvironment(Template.fromStack(stack), 'approval-notifier');
  secrets.on(GetSecretValueCommand, { SecretId: ARN('slack-bot') }).resolves({ SecretString: BOT_TOKEN });
});
afterAll(async () => {
  secrets.restore();
});
afterEach(() => {
  for (const name of Object.keys(environment)) delete process.env[name];
});

describe('approval-notifier handler', () => {
  it('posts a parked question to Slack with the environment the construct sets', async () => {
    // Arrange
    Object.assign(process.env, environment);
    const question = parkedQuestion();
    await localStores.approvals.put(question);
    const handler = (await import('../../lambdas/approval-notifier')).handler as unknown as Handler;
    const event = {
      Records: [{ eventName: 'INSERT', dynamodb: { Keys: { approvalId: { S: question.approvalId } } } }],
    };

    // Act
    const result = await handler(event, lambdaContext());

    // Assert
    expect(environment[APPROVAL_ENV.slackSigningSecretArn]).toBeUndefined();
    expect(environment[APPROVAL_ENV.slackBotTokenSecretArn]).toBe(ARN('slack-bot'));
    expect(result).toEqual({ updated: 1 });
    const posts = slack.calls.filter((c) => c.method === 'chat.postMessage');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.args['channel']).toBe('C123');
    expect(String(posts[0]?.args['text'])).toContain(question.prompt);
    expect(secrets.commandCalls(GetSecretValueCommand).map((c) => c.args[0].input.SecretId)).toEqual([
      ARN('slack-bot'),
    ]);
  });
});
