/**
 * Slack through `@slack/web-api`: messages posted and updated with the bot token, answers told
 * privately (ephemeral) to whoever pressed a button, and the typed-answer modal opened. The API
 * base URL is configurable (`slackApiUrl`): that is how tests reach a fake Slack on 127.0.0.1.
 */
import { ErrorCode, type ModalView, WebClient } from '@slack/web-api';
import {
  type ChatChannel,
  type ChatMessage,
  ChatRateLimitedError,
  type MessageRef,
  renderPlainText,
  type ThreadPlacement,
} from './message';
import { slackBlocks } from './slack-blocks';

/** Where and how to reach Slack. */
export interface SlackChannelOptions {
  /** The bot token (`xoxb-...`), read from Secrets Manager; never logged. */
  readonly botToken: string;
  /** Channel id (`C...`) questions are posted to. */
  readonly channelId: string;
  /** @default 'https://slack.com/api/' */
  readonly slackApiUrl?: string;
  /**
   * For calls made before answering Slack, which wants its answer within 3 seconds: one try of
   * at most 1.5 s, and a rate limit (429) fails the call instead of being waited out.
   * @default false: retries (2) and 10 s per call, for notifiers, which have minutes
   */
  readonly prompt?: boolean;
  /**
   * A rate limit (429) fails the call with `ChatRateLimitedError` (its `Retry-After`) instead of
   * being waited out: for the live message's edits, which are skipped and deferred, not queued.
   * @default false
   */
  readonly rejectRateLimited?: boolean;
}

/** A notifier's patience: a Lambda has minutes, not the half hour of the default policy. */
const PATIENT = { retryConfig: { retries: 2, minTimeout: 200, maxTimeout: 2000 }, timeout: 10_000 };
/** Before Slack's 3-second acknowledgement (https://api.slack.com/interactivity/handling#acknowledgment_response). */
const PROMPT = { retryConfig: { retries: 0 }, timeout: 1_500, rejectRateLimitedCalls: true };

/** Slack as a chat channel, plus the calls the approval endpoint makes. */
export class SlackChannel implements ChatChannel {
  public readonly name = 'slack';
  public readonly threads = true;
  private readonly client: WebClient;

  public constructor(private readonly options: SlackChannelOptions) {
    this.client = new WebClient(options.botToken, {
      ...(options.slackApiUrl === undefined ? {} : { slackApiUrl: options.slackApiUrl }),
      ...(options.prompt === true ? PROMPT : PATIENT),
      ...(options.rejectRateLimited === true ? { rejectRateLimitedCalls: true } : {}),
    });
  }

  public async post(message: ChatMessage, placement?: ThreadPlacement): Promise<MessageRef> {
    const base = {
      channel: placement?.thread.channel ?? this.options.channelId,
      text: renderPlainText(message),
      blocks: slackBlocks(message),
    };
    // A reply in the run's thread (https://api.slack.com/methods/chat.postMessage#arg_thread_ts),
    // also shown in the channel when broadcast (`reply_broadcast`).
    const out = await this.client.chat.postMessage(
      placement === undefined
        ? base
        : placement.broadcast === true
          ? { ...base, thread_ts: placement.thread.ts, reply_broadcast: true }
          : { ...base, thread_ts: placement.thread.ts },
    );
    return { channel: out.channel ?? this.options.channelId, ts: out.ts ?? '' };
  }

  public async update(ref: MessageRef, message: ChatMessage): Promise<MessageRef> {
    try {
      await this.client.chat.update({
        channel: ref.channel,
        ts: ref.ts,
        text: renderPlainText(message),
        blocks: slackBlocks(message),
      });
    } catch (error) {
      throw rateLimitOf(error) ?? error;
    }
    return ref;
  }

  /** A message only `userId` sees, in `channelId`. */
  public async tellPrivately(channelId: string, userId: string, text: string): Promise<void> {
    await this.client.chat.postEphemeral({ channel: channelId, user: userId, text });
  }

  /** Opens a modal for the user whose interaction carried `triggerId`. */
  public async openModal(triggerId: string, view: ModalView): Promise<void> {
    await this.client.views.open({ trigger_id: triggerId, view });
  }
}

/** The client's rate-limit error as a channel's, with its `Retry-After`; `undefined` for any other. */
function rateLimitOf(error: unknown): ChatRateLimitedError | undefined {
  const e = error as { code?: unknown; retryAfter?: unknown } | null;
  if (e?.code !== ErrorCode.RateLimitedError) return undefined;
  const seconds = typeof e.retryAfter === 'number' ? e.retryAfter : 1;
  return new ChatRateLimitedError(seconds * 1000, { cause: error });
}
