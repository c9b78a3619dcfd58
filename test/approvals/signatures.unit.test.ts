/**
 * Request signatures: Slack's v0 scheme against Slack's own documented example, the 5-minute
 * window both ways, and the webhook's v1 scheme with named keys.
 */
import {
  ApprovalSignatureError,
  verifySlackSignature,
  verifyWebhookSignature,
  webhookSignature,
} from '../../lib/approvals';

// The example of Slack's "Verifying requests from Slack" page.
const SLACK_EXAMPLE = {
  secret: '8f742231b10e8888abcd99yyyzzz85a5',
  timestamp: 1531420618,
  body: 'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c',
  signature: 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
};
const headers = (timestamp: number, signature: string) => ({
  'x-slack-request-timestamp': String(timestamp),
  'x-slack-signature': signature,
});

describe('verifySlackSignature', () => {
  it("accepts Slack's documented example within the window", () => {
    // Arrange
    const { secret, timestamp, body, signature } = SLACK_EXAMPLE;

    // Act
    const verified = verifySlackSignature(
      headers(timestamp, signature),
      body,
      secret,
      (timestamp + 299) * 1000,
    );

    // Assert
    expect(verified).toEqual({ signature, timestamp });
  });

  it.each([
    {
      name: 'a changed body',
      body: `${SLACK_EXAMPLE.body}x`,
      at: 0,
      expected: 'Slack signature does not match',
    },
    { name: 'a request 301 s old', body: SLACK_EXAMPLE.body, at: 301, expected: 'refused as stale' },
    {
      name: 'a request 301 s in the future',
      body: SLACK_EXAMPLE.body,
      at: -301,
      expected: 'refused as stale',
    },
  ])('refuses $name', ({ body, at, expected }) => {
    // Arrange
    const { secret, timestamp, signature } = SLACK_EXAMPLE;

    // Act
    const act = () =>
      verifySlackSignature(headers(timestamp, signature), body, secret, (timestamp + at) * 1000);

    // Assert
    expect(act).toThrow(ApprovalSignatureError);
    expect(act).toThrow(expected);
  });

  it('refuses a missing timestamp', () => {
    // Act
    const act = () => verifySlackSignature({ 'x-slack-signature': SLACK_EXAMPLE.signature }, '', 's', 0);

    // Assert
    expect(act).toThrow('Missing or malformed request timestamp');
  });
});

describe('verifyWebhookSignature', () => {
  const keys = { ops: 'secret-ops' };
  const body = '{"approvalId":"x","answer":"yes","answeredBy":"bob"}';

  it('accepts a body signed with a named key, and names the key', () => {
    // Arrange
    const h = {
      'x-nomad-restart-key-id': 'ops',
      'x-nomad-restart-timestamp': '1000',
      'x-nomad-restart-signature': webhookSignature('secret-ops', 1000, body),
    };

    // Act
    const verified = verifyWebhookSignature(h, body, keys, 1_000_000);

    // Assert
    expect(verified.keyId).toBe('ops');
    expect(verified.signature).toMatch(/^v1=[0-9a-f]{64}$/);
  });

  it('refuses a signature made with another key id', () => {
    // Arrange
    const h = {
      'x-nomad-restart-key-id': 'ops',
      'x-nomad-restart-timestamp': '1000',
      'x-nomad-restart-signature': webhookSignature('secret-other', 1000, body),
    };

    // Act
    const act = () => verifyWebhookSignature(h, body, keys, 1_000_000);

    // Assert
    expect(act).toThrow('Webhook signature does not match');
  });
});
