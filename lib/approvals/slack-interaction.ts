/**
 * Reads a verified Slack interactivity request (`payload=<JSON>`, form-encoded) into what the
 * endpoint acts on: an answer button, the button that opens the typed-answer modal, the modal's
 * submission, or a run's Pause / Stop button. Anything else is malformed.
 */
import * as z from 'zod';
import { MalformedApprovalRequestError } from './errors';
import {
  ANSWER_ACTION,
  ANSWER_BLOCK_PREFIX,
  CONTROL_ACTION,
  CONTROL_BLOCK_PREFIX,
  FREE_TEXT_ACTION,
  FREE_TEXT_VIEW,
} from './slack-blocks';

/** Who pressed or submitted, as Slack names them. */
export interface SlackActor {
  readonly userId: string;
  readonly userName: string;
  readonly teamId: string;
  readonly channelId: string;
}

/** One Slack interaction the endpoint handles. */
export type SlackInteraction =
  | {
      /** A run's Pause or Stop button (lib/approvals/run-control.ts). */
      readonly kind: 'control';
      readonly actor: SlackActor;
      readonly runId: string;
      readonly verb: 'pause' | 'stop';
    }
  | {
      readonly kind: 'answer';
      readonly actor: SlackActor;
      readonly approvalId: string;
      readonly reply: string;
    }
  | {
      readonly kind: 'open-typed';
      readonly actor: SlackActor;
      readonly approvalId: string;
      readonly triggerId: string;
    }
  | {
      readonly kind: 'typed';
      readonly actor: SlackActor;
      readonly approvalId: string;
      readonly reply: string;
    };

/** An interaction about a question (an answer, the typed-answer modal): every kind but `control`. */
export type QuestionInteraction = Exclude<SlackInteraction, { readonly kind: 'control' }>;

const user = z.object({
  id: z.string().min(1),
  username: z.string().optional(),
  name: z.string().optional(),
});
const team = z.object({ id: z.string().min(1) });

const blockActions = z.object({
  type: z.literal('block_actions'),
  user,
  team,
  trigger_id: z.string().min(1),
  channel: z.object({ id: z.string().min(1) }),
  actions: z
    .array(z.object({ action_id: z.string(), block_id: z.string(), value: z.string().optional() }))
    .min(1),
});

const viewSubmission = z.object({
  type: z.literal('view_submission'),
  user,
  team,
  view: z.object({
    callback_id: z.literal(FREE_TEXT_VIEW.callbackId),
    private_metadata: z.string(),
    state: z.object({
      values: z.record(z.string(), z.record(z.string(), z.object({ value: z.string().nullish() }))),
    }),
  }),
});

const typedContext = z.object({ approvalId: z.string().min(1), channelId: z.string().min(1) });

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new MalformedApprovalRequestError(`${what} is not JSON`, { cause: error });
  }
}

const actorOf = (u: z.infer<typeof user>, teamId: string, channelId: string): SlackActor => ({
  userId: u.id,
  userName: u.username ?? u.name ?? u.id,
  teamId,
  channelId,
});

/**
 * Reads the interaction from a raw, already verified body.
 * @throws MalformedApprovalRequestError
 */
export function parseSlackInteraction(rawBody: string): SlackInteraction {
  const payload = new URLSearchParams(rawBody).get('payload');
  if (payload === null) throw new MalformedApprovalRequestError('Slack request has no "payload" field');
  const json = parseJson(payload, 'Slack payload');
  const type = (json as { type?: unknown } | null)?.type;
  if (type === 'block_actions') {
    const parsed = blockActions.safeParse(json);
    if (!parsed.success)
      throw new MalformedApprovalRequestError('Slack block_actions payload lacks a field we need');
    const p = parsed.data;
    const action = p.actions[0];
    const actor = actorOf(p.user, p.team.id, p.channel.id);
    if (action?.block_id.startsWith(CONTROL_BLOCK_PREFIX) === true) {
      const verb = action.action_id.slice(CONTROL_ACTION.length + 1);
      if (!action.action_id.startsWith(`${CONTROL_ACTION}:`) || (verb !== 'pause' && verb !== 'stop'))
        throw new MalformedApprovalRequestError(`Unknown Slack action "${action.action_id}"`);
      return { kind: 'control', actor, runId: action.block_id.slice(CONTROL_BLOCK_PREFIX.length), verb };
    }
    if (action === undefined || !action.block_id.startsWith(ANSWER_BLOCK_PREFIX)) {
      throw new MalformedApprovalRequestError('Slack action is not an answer to a nomad-restart question');
    }
    const approvalId = action.block_id.slice(ANSWER_BLOCK_PREFIX.length);
    if (action.action_id === FREE_TEXT_ACTION)
      return { kind: 'open-typed', actor, approvalId, triggerId: p.trigger_id };
    if (action.action_id.startsWith(`${ANSWER_ACTION}:`) && action.value !== undefined) {
      return { kind: 'answer', actor, approvalId, reply: action.value };
    }
    throw new MalformedApprovalRequestError(`Unknown Slack action "${action.action_id}"`);
  }
  if (type === 'view_submission') {
    const parsed = viewSubmission.safeParse(json);
    if (!parsed.success)
      throw new MalformedApprovalRequestError('Slack view_submission payload lacks a field we need');
    const p = parsed.data;
    const context = typedContext.safeParse(parseJson(p.view.private_metadata, 'Slack view metadata'));
    if (!context.success)
      throw new MalformedApprovalRequestError('Slack view metadata lacks the approval id');
    const reply = p.view.state.values[FREE_TEXT_VIEW.blockId]?.[FREE_TEXT_VIEW.actionId]?.value ?? '';
    return {
      kind: 'typed',
      actor: actorOf(p.user, p.team.id, context.data.channelId),
      approvalId: context.data.approvalId,
      reply,
    };
  }
  throw new MalformedApprovalRequestError(`Slack payload type ${JSON.stringify(type)} is not handled`);
}
