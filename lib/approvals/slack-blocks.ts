/**
 * Slack Block Kit for a chat message: a header, the lines, the error list in a code block, the
 * answers as buttons (block id = approval id, button value = the reply), the console link, and
 * the modal that takes a typed wait duration.
 */
import type { Button, KnownBlock, ModalView } from '@slack/web-api';
import type { ChatMessage } from './message';

/** Block id prefix of the answers block; the approval id follows. */
export const ANSWER_BLOCK_PREFIX = 'approval:';
/** Action id of an answer button (its value is the reply). */
export const ANSWER_ACTION = 'answer';
/** Action id of the button that opens the typed-answer modal. */
export const FREE_TEXT_ACTION = 'answer-typed';
/** Block id prefix of a run's control buttons; the run id follows. */
export const CONTROL_BLOCK_PREFIX = 'control:';
/** Action id prefix of a control button; the verb follows (`control:pause`). */
export const CONTROL_ACTION = 'control';
/** Callback id of the typed-answer modal; its input block and element ids. */
export const FREE_TEXT_VIEW = { callbackId: 'answer-typed', blockId: 'reply', actionId: 'reply' } as const;

/** Slack's limits: header text 150 characters, a section's text 3000. */
const HEADER_MAX = 150;
const SECTION_MAX = 3000;

/** Escapes the three characters Slack's mrkdwn treats as markup. */
export const escapeMrkdwn = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** The Block Kit blocks of a message. */
export function slackBlocks(message: ChatMessage): KnownBlock[] {
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: clip(message.title, HEADER_MAX) } },
    {
      type: 'section',
      text: { type: 'mrkdwn', text: clip(message.lines.map(escapeMrkdwn).join('\n'), SECTION_MAX) },
    },
  ];
  if (message.preformatted !== undefined) {
    blocks.push({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `\`\`\`${clip(escapeMrkdwn(message.preformatted), SECTION_MAX - 6)}\`\`\``,
      },
    });
  }
  const answers = message.answers;
  if (answers !== undefined) {
    const buttons: Button[] = answers.choices.map((choice) => ({
      type: 'button',
      action_id: `${ANSWER_ACTION}:${choice.reply}`,
      text: { type: 'plain_text', text: choice.label },
      value: choice.reply,
      ...(choice.style === undefined ? {} : { style: choice.style }),
    }));
    if (answers.freeText !== undefined) {
      buttons.push({
        type: 'button',
        action_id: FREE_TEXT_ACTION,
        text: { type: 'plain_text', text: answers.freeText.label },
        value: 'typed',
      });
    }
    blocks.push({
      type: 'actions',
      block_id: `${ANSWER_BLOCK_PREFIX}${answers.approvalId}`,
      elements: buttons,
    });
  }
  if (message.controls !== undefined) blocks.push(controlBlock(message.controls));
  if (message.link !== undefined) {
    blocks.push({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: `<${message.link.url}|${escapeMrkdwn(message.link.text)}>` }],
    });
  }
  return blocks;
}

const CONTROL_LABELS = { pause: 'Pause', stop: 'Stop' } as const;

/** The Pause / Stop buttons of a run's live message. */
function controlBlock(controls: NonNullable<ChatMessage['controls']>): KnownBlock {
  return {
    type: 'actions',
    block_id: `${CONTROL_BLOCK_PREFIX}${controls.runId}`,
    elements: controls.verbs.map(
      (verb): Button => ({
        type: 'button',
        action_id: `${CONTROL_ACTION}:${verb}`,
        text: { type: 'plain_text', text: CONTROL_LABELS[verb] },
        value: verb,
        ...(verb === 'stop' ? { style: 'danger' as const } : {}),
      }),
    ),
  };
}

/** What the typed-answer modal carries back in `private_metadata`. */
export interface TypedAnswerContext {
  readonly approvalId: string;
  /** The channel of the message whose button opened it (the allow-list checks it again). */
  readonly channelId: string;
}

/** The modal that asks for a typed answer (a wait duration), for `views.open`. */
export function typedAnswerView(context: TypedAnswerContext, hint: string): ModalView {
  return {
    type: 'modal',
    callback_id: FREE_TEXT_VIEW.callbackId,
    private_metadata: JSON.stringify(context),
    title: { type: 'plain_text', text: 'Proceed, then wait' },
    submit: { type: 'plain_text', text: 'Answer' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      {
        type: 'input',
        block_id: FREE_TEXT_VIEW.blockId,
        label: { type: 'plain_text', text: 'Wait between batches' },
        hint: { type: 'plain_text', text: hint },
        element: { type: 'plain_text_input', action_id: FREE_TEXT_VIEW.actionId },
      },
    ],
  };
}
