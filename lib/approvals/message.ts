/**
 * A chat message as data, whatever the channel: a title, plain lines, an optional preformatted
 * block (an error list), a link, and, for a question, the answers it accepts. Slack renders it as
 * Block Kit, the webhook sends it as JSON, SNS as plain text. Run notifications reuse it without
 * the answers.
 */
import { NamedError } from '../errors/named-error';

/** One answer offered as a button: `reply` is what the workflow receives. */
export interface ChatChoice {
  readonly label: string;
  readonly reply: string;
  readonly style?: 'primary' | 'danger';
}

/** The answers a question accepts, tied to its approval id. */
export interface ChatAnswers {
  readonly approvalId: string;
  readonly choices: readonly ChatChoice[];
  /** Offered when a typed answer is accepted too (a wait duration): what to ask for. */
  readonly freeText?: { readonly label: string; readonly hint: string };
}

/**
 * Run-control buttons on a run's live message (lib/control/requests.ts): each asks the run to
 * pause or stop at its next safe point, attributed to whoever pressed it.
 */
export interface ChatControls {
  /** The run: its first execution's ARN. */
  readonly runId: string;
  readonly verbs: readonly ('pause' | 'stop')[];
}

/** A message for people: channel-neutral. */
export interface ChatMessage {
  readonly title: string;
  readonly lines: readonly string[];
  /** Shown monospace as it is (an error list from the one formatter). */
  readonly preformatted?: string;
  readonly link?: { readonly text: string; readonly url: string };
  readonly answers?: ChatAnswers;
  readonly controls?: ChatControls;
}

/** Where a posted message is, so it can be updated: a Slack channel and ts, a webhook delivery id, ... */
export interface MessageRef {
  readonly channel: string;
  readonly ts: string;
}

/** Where in a run's thread a message goes (lib/approvals/run-thread.ts). */
export interface ThreadPlacement {
  /** The run's live message, which the thread hangs off. */
  readonly thread: MessageRef;
  /** Shown in the channel too, not only in the thread (the run's end). @default false */
  readonly broadcast?: boolean;
}

/** A channel asked to wait before the next call (Slack's 429 and its `Retry-After`). */
export class ChatRateLimitedError extends NamedError {
  public constructor(
    /** How long to wait, in ms. */
    public readonly retryAfterMs: number,
    options?: ErrorOptions,
  ) {
    super(`Rate limited: retry after ${retryAfterMs} ms`, options);
  }
}

/** A place messages go (Slack, a webhook, an SNS topic). */
export interface ChatChannel {
  /** Stable name, the key of the message on the approval item (`slack`, `webhook`, `sns`). */
  readonly name: string;
  /**
   * Whether it keeps a run's live message and thread (Slack: a thread; the webhook: deliveries
   * naming the live one). An e-mail topic does not: one mail per edit would be noise.
   * @default false
   */
  readonly threads?: boolean;
  /** Posts `message`, in a run's thread when `placement` names one and the channel keeps threads. */
  post(message: ChatMessage, placement?: ThreadPlacement): Promise<MessageRef>;
  /** Shows `message` instead of what `ref` showed (Slack: edits it; others send a follow-up). */
  update(ref: MessageRef, message: ChatMessage): Promise<MessageRef>;
}

/** The message as plain text: e-mail bodies, Slack's notification fallback. */
export function renderPlainText(message: ChatMessage): string {
  const parts = [message.title, '', ...message.lines];
  if (message.preformatted !== undefined && message.preformatted !== '') parts.push('', message.preformatted);
  if (message.answers !== undefined) {
    parts.push('', `Answers: ${message.answers.choices.map((c) => `${c.label} (${c.reply})`).join(', ')}`);
    if (message.answers.freeText !== undefined) parts.push(message.answers.freeText.hint);
  }
  if (message.link !== undefined) parts.push('', `${message.link.text}: ${message.link.url}`);
  return parts.join('\n');
}
