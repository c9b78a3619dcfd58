/**
 * A generic webhook for teams on other chat systems: each message is POSTed as JSON, signed with
 * HMAC-SHA256 (v1 scheme, `signatures.ts`) under a named key and timestamped. An update is a new
 * delivery that names the one it replaces. Answers come back to the approval endpoint, signed
 * the same way.
 */
import { randomUUID } from 'node:crypto';
import { NamedError } from '../errors/named-error';
import type { ChatChannel, ChatMessage, MessageRef, ThreadPlacement } from './message';
import { WEBHOOK_HEADERS, webhookSignature } from './signatures';

/** Where deliveries go and how they are signed. */
export interface WebhookChannelOptions {
  readonly url: string;
  /** Id of the key that signs, sent in `x-nomad-restart-key-id`. */
  readonly keyId: string;
  /** Its secret, read from Secrets Manager; never logged. */
  readonly secret: string;
  /** Where answers go (`<endpoint>/webhook/answers`), when the endpoint is deployed. */
  readonly answerUrl?: string;
  /** Unix milliseconds. @default Date.now */
  readonly now?: () => number;
  /** @default 10 s */
  readonly timeoutMs?: number;
}

/** The JSON body of one delivery. */
export interface WebhookDelivery {
  readonly deliveryId: string;
  /** The delivery this one replaces (an update), if any. */
  readonly replaces?: string;
  /** The run's live message (its first delivery) this one belongs to, as a Slack thread reply would. */
  readonly thread?: string;
  /** With `thread`: meant for the channel too (the run's end). */
  readonly broadcast?: boolean;
  readonly message: ChatMessage;
  /** How to answer, when the message asks a question. */
  readonly answerUrl?: string;
}

/** A failed delivery: the receiver's status, never the body we sent (it carries the message only). */
export class WebhookDeliveryError extends NamedError {}

/** The webhook as a chat channel. */
export class WebhookChannel implements ChatChannel {
  public readonly name = 'webhook';
  public readonly threads = true;

  public constructor(private readonly options: WebhookChannelOptions) {}

  public post(message: ChatMessage, placement?: ThreadPlacement): Promise<MessageRef> {
    return this.deliver(message, undefined, placement);
  }

  public update(ref: MessageRef, message: ChatMessage): Promise<MessageRef> {
    return this.deliver(message, ref.ts, undefined);
  }

  private async deliver(
    message: ChatMessage,
    replaces: string | undefined,
    placement: ThreadPlacement | undefined,
  ): Promise<MessageRef> {
    const o = this.options;
    const delivery: WebhookDelivery = {
      deliveryId: randomUUID(),
      ...(replaces === undefined ? {} : { replaces }),
      ...(placement === undefined
        ? {}
        : { thread: placement.thread.ts, ...(placement.broadcast === true ? { broadcast: true } : {}) }),
      message,
      ...(o.answerUrl === undefined || message.answers === undefined ? {} : { answerUrl: o.answerUrl }),
    };
    const body = JSON.stringify(delivery);
    const timestamp = Math.floor((o.now ?? Date.now)() / 1000);
    const response = await fetch(o.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [WEBHOOK_HEADERS.keyId]: o.keyId,
        [WEBHOOK_HEADERS.timestamp]: String(timestamp),
        [WEBHOOK_HEADERS.signature]: webhookSignature(o.secret, timestamp, body),
      },
      body,
      signal: AbortSignal.timeout(o.timeoutMs ?? 10_000),
    });
    if (!response.ok)
      throw new WebhookDeliveryError(`Webhook answered ${response.status} ${response.statusText}`);
    return { channel: 'webhook', ts: delivery.deliveryId };
  }
}
