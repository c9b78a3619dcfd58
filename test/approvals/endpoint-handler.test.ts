/**
 * The endpoint's Lambda handler as its Function URL calls it: a base64-encoded body (as Lambda
 * delivers form posts) is verified against the raw text Slack signed, header names are matched
 * whatever their case, and a route nobody configured is a 404. Slack is a fake on 127.0.0.1.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SendTaskSuccessCommand, SFNClient } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { APPROVAL_ENV } from '../../lib/approvals/settings';
import { newApprovalId } from '../../lib/stores';
import { lambdaContext } from '../lambdas/helpers/fixtures';
import { buttonPress, SIGNING_SECRET, slackBody, slackHeaders } from './helpers/approvals';
import { fakeSlackAroundAll } from './helpers/fake-slack';
import { functionUrlEvent } from './helpers/local-loop';

const secrets = mockClient(SecretsManagerClient);
const sfn = mockClient(SFNClient);
const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:slack-AbCdEf';
type Handler = (event: unknown, context: unknown) => Promise<{ statusCode: number; body: string }>;

describe('approval-endpoint handler', () => {
  let handler: Handler;
  const slack = fakeSlackAroundAll('xoxb-token');

  beforeAll(async () => {
    Object.assign(process.env, {
      [APPROVAL_ENV.slackApiUrl]: slack.apiUrl,
      [APPROVAL_ENV.slackBotTokenSecretArn]: ARN,
      [APPROVAL_ENV.slackSigningSecretArn]: `${ARN}-signing`,
      [APPROVAL_ENV.slackChannelId]: 'C1',
      [APPROVAL_ENV.slackAllowedUserIds]: 'U1',
    });
    secrets.on(GetSecretValueCommand, { SecretId: ARN }).resolves({ SecretString: 'xoxb-token' });
    secrets
      .on(GetSecretValueCommand, { SecretId: `${ARN}-signing` })
      .resolves({ SecretString: SIGNING_SECRET });
    handler = (await import('../../lambdas/approval-endpoint')).handler as unknown as Handler;
  });
  afterAll(async () => {
    for (const name of Object.values(APPROVAL_ENV)) delete process.env[name];
    secrets.restore();
    sfn.restore();
  });

  it('verifies a base64-encoded body against the text Slack signed, whatever the header case', async () => {
    // Arrange: an unknown question, so a verified request ends in a private "expired" (a forged one in a 401).
    const body = slackBody(buttonPress(newApprovalId(), 'yes'));
    const headers = Object.fromEntries(
      Object.entries(slackHeaders(body, Math.floor(Date.now() / 1000))).map(([k, v]) => [k.toUpperCase(), v]),
    );
    const event = {
      ...functionUrlEvent('/slack/interactions', headers, ''),
      body: Buffer.from(body).toString('base64'),
      isBase64Encoded: true,
    };

    // Act
    const response = await handler(event, lambdaContext());

    // Assert
    expect(response.statusCode).toBe(200);
    expect(sfn.commandCalls(SendTaskSuccessCommand)).toHaveLength(0);
    expect(slack.calls).toEqual([
      {
        method: 'chat.postEphemeral',
        args: { channel: 'C1', user: 'U1', text: 'This question has expired and can no longer be answered.' },
      },
    ]);
  });

  it('answers 404 on the webhook route when no webhook is configured', async () => {
    // Act
    const response = await handler(functionUrlEvent('/webhook/answers', {}, '{}'), lambdaContext());

    // Assert
    expect(response.statusCode).toBe(404);
  });
});
