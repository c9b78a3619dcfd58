/**
 * Request signatures, both ways: Slack's v0 scheme (HMAC-SHA256 of `v0:<timestamp>:<raw body>`
 * with the app's signing secret) and our webhook's v1 scheme (HMAC-SHA256 of
 * `v1:<timestamp>:<raw body>` with the secret of a named key). A request older or newer than the
 * window is refused, so a captured one is useless after it; the replay guard covers the window.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApprovalSignatureError } from './errors';

/** How far a request's timestamp may be from now, in seconds (Slack's own recommendation). */
export const SIGNATURE_WINDOW_SECONDS = 5 * 60;

/** The webhook's headers, lower-case as HTTP/2 and Lambda Function URLs deliver them. */
export const WEBHOOK_HEADERS = {
  keyId: 'x-nomad-restart-key-id',
  timestamp: 'x-nomad-restart-timestamp',
  signature: 'x-nomad-restart-signature',
} as const;

type Headers = Readonly<Record<string, string | undefined>>;

const hmacHex = (secret: string, text: string) =>
  createHmac('sha256', secret).update(text, 'utf8').digest('hex');

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

function checkTimestamp(raw: string | undefined, nowMs: number): number {
  if (raw === undefined || !/^\d{1,12}$/.test(raw))
    throw new ApprovalSignatureError('Missing or malformed request timestamp');
  const seconds = Number(raw);
  if (Math.abs(nowMs / 1000 - seconds) > SIGNATURE_WINDOW_SECONDS) {
    throw new ApprovalSignatureError(
      `Request timestamp is more than ${SIGNATURE_WINDOW_SECONDS / 60} minutes from now; refused as stale`,
    );
  }
  return seconds;
}

/**
 * Checks a Slack request (`x-slack-request-timestamp`, `x-slack-signature`) against the raw body.
 * Returns the signature, which identifies the request for the replay guard.
 * @throws ApprovalSignatureError
 */
export function verifySlackSignature(
  headers: Headers,
  rawBody: string,
  signingSecret: string,
  nowMs: number,
) {
  const timestamp = checkTimestamp(headers['x-slack-request-timestamp'], nowMs);
  const signature = headers['x-slack-signature'] ?? '';
  const expected = `v0=${hmacHex(signingSecret, `v0:${timestamp}:${rawBody}`)}`;
  if (!sameText(signature, expected)) throw new ApprovalSignatureError('Slack signature does not match');
  return { signature, timestamp };
}

/** The v1 signature of a webhook body sent at `timestamp` (Unix seconds): `v1=<hex>`. */
export function webhookSignature(secret: string, timestamp: number, rawBody: string): string {
  return `v1=${hmacHex(secret, `v1:${timestamp}:${rawBody}`)}`;
}

/**
 * Checks a webhook answer: its key id must name one of `keys`, its timestamp be in the window,
 * and its signature match. Returns the key id and signature.
 * @throws ApprovalSignatureError
 */
export function verifyWebhookSignature(
  headers: Headers,
  rawBody: string,
  keys: Readonly<Record<string, string>>,
  nowMs: number,
) {
  const keyId = headers[WEBHOOK_HEADERS.keyId] ?? '';
  const secret = Object.hasOwn(keys, keyId) ? keys[keyId] : undefined;
  const timestamp = checkTimestamp(headers[WEBHOOK_HEADERS.timestamp], nowMs);
  const signature = headers[WEBHOOK_HEADERS.signature] ?? '';
  // The same work whether or not the key exists, so a probe cannot tell key ids apart by time.
  const expected = webhookSignature(secret ?? 'no such key', timestamp, rawBody);
  if (secret === undefined || !sameText(signature, expected)) {
    throw new ApprovalSignatureError('Webhook signature does not match');
  }
  return { keyId, signature, timestamp };
}
