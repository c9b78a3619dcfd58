/**
 * Slack's 3-second rule (#28 item 8): what the endpoint does before answering Slack is short. Its
 * Slack client makes one try and fails a rate-limited call at once instead of waiting out
 * Slack's `Retry-After`; the channel secrets of a cold start are read in parallel.
 */
import { createServer, type Server } from 'node:http';
import { APPROVAL_ENV, approvalSettingsFromEnv } from '../../lib/approvals/settings';
import { SlackChannel } from '../../lib/approvals/slack-channel';
import { closeServer, listenOnLoopback } from '../fixtures/loopback';

/** A Slack that rate-limits every call (429, retry after a second), counting them. */
async function rateLimitedSlack(): Promise<{
  apiUrl: string;
  calls: () => number;
  close: () => Promise<void>;
}> {
  let calls = 0;
  const server: Server = createServer((request, response) => {
    calls += 1;
    request.resume();
    response.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' });
    response.end(JSON.stringify({ ok: false, error: 'ratelimited' }));
  });
  const port = await listenOnLoopback(server);
  return {
    apiUrl: `http://127.0.0.1:${port}/api/`,
    calls: () => calls,
    close: () => closeServer(server),
  };
}

describe('the endpoint before it answers Slack', () => {
  it('fails a rate-limited private message after one call instead of waiting it out', async () => {
    // Arrange
    const slack = await rateLimitedSlack();
    const channel = new SlackChannel({
      botToken: 'xoxb-t',
      channelId: 'C1',
      slackApiUrl: slack.apiUrl,
      prompt: true,
    });

    // Act
    const told = channel.tellPrivately('C1', 'U1', 'This question is closed: it was already answered.');

    // Assert
    await expect(told).rejects.toThrow();
    expect(slack.calls()).toBe(1);
    await slack.close();
  });

  it('reads the bot token, the signing secret and the webhook keys in parallel', async () => {
    // Arrange: each read resolves on a later turn, after the others had their chance to start.
    let inFlight = 0;
    let most = 0;
    const readSecret = async (arn: string) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight -= 1;
      return arn.endsWith('webhook') ? '{"ops":"webhook-secret"}' : `secret-of-${arn}`;
    };
    const env = {
      [APPROVAL_ENV.slackBotTokenSecretArn]: 'arn:bot',
      [APPROVAL_ENV.slackSigningSecretArn]: 'arn:signing',
      [APPROVAL_ENV.slackChannelId]: 'C1',
      [APPROVAL_ENV.slackAllowedUserIds]: 'U1',
      [APPROVAL_ENV.webhookUrl]: 'https://hooks.example/answers',
      [APPROVAL_ENV.webhookSecretArn]: 'arn:webhook',
      [APPROVAL_ENV.webhookKeyId]: 'ops',
    };

    // Act
    const settings = await approvalSettingsFromEnv(env, readSecret);

    // Assert
    expect(most).toBe(3);
    expect(settings.slack).toMatchObject({
      botToken: 'secret-of-arn:bot',
      signingSecret: 'secret-of-arn:signing',
    });
    expect(settings.webhook?.keys).toEqual({ ops: 'webhook-secret' });
  });
});
