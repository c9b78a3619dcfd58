/**
 * What every route of the approval endpoint shares: its request, response and dependencies, the
 * JSON response, a webhook's JSON body, the status of a refusal, the replay guard's first sighting of a signed request,
 * the decision id it decides a question under, the decision in a sentence, and the private Slack
 * message.
 */
import { createHash } from 'node:crypto';
import type * as z from 'zod';
import { RunControlError, RunNotRunningError } from '../control/errors';
import type { JobLock } from '../stores/job-lock';
import type { ReplayGuard } from '../stores/replay-guard';
import type { SlackAllowList } from './allow-list';
import type { DecideDeps, DecideOutcome } from './decide';
import { ApprovalError, MalformedApprovalRequestError } from './errors';
import { decisionLine } from './question-message';
import { SIGNATURE_WINDOW_SECONDS } from './signatures';
import type { SlackChannel } from './slack-channel';
import type { SlackActor } from './slack-interaction';

/** An HTTP request as the endpoint sees it: header names lower-case, the body raw (signatures cover it). */
export interface ApprovalHttpRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string;
}

/** Structured log lines: ids, names and statuses only. */
export interface EndpointLog {
  info(message: string, fields: Record<string, unknown>): void;
  warn(message: string, fields: Record<string, unknown>): void;
}

/** What the endpoint works with; a channel left out is not served (404). */
export interface EndpointDeps {
  readonly decide: DecideDeps;
  readonly replays: ReplayGuard;
  readonly log: EndpointLog;
  /** Unix milliseconds. */
  readonly now: () => number;
  readonly slack?: {
    readonly signingSecret: string;
    readonly allow: SlackAllowList;
    readonly api: Pick<SlackChannel, 'tellPrivately' | 'openModal'>;
  };
  readonly webhook?: {
    /** Secrets by key id: any of them verifies a signature. */
    readonly keys: Readonly<Record<string, string>>;
    /** The key ids that may answer. */
    readonly allowedKeyIds: readonly string[];
  };
  /**
   * The lock table, where pause and stop requests are recorded for a run's next safe point.
   * @default - none: Pause / Stop buttons are told run control is off, `/webhook/requests` is 404
   */
  readonly lock?: Pick<JobLock, 'keysHeldBy' | 'requestControl' | 'controlRequest' | 'clearControlRequest'>;
  /**
   * The one-job state machine, whose pending questions hold a fleet's parked jobs' (a fleet's run
   * ID does not name it).
   * @default - none: a fleet's resume or stop answers none of its parked jobs
   */
  readonly restartStateMachineArn?: string;
}

/** The endpoint's answer. */
export interface ApprovalHttpResponse {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** A JSON response. */
export const json = (statusCode: number, body: unknown): ApprovalHttpResponse => ({
  statusCode,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/**
 * A webhook's JSON body read with `schema`, or a 400 saying what `what` (`Webhook answer`) must be:
 * `shape`, as the sender would write it.
 */
export function readWebhookJson<T>(text: string, schema: z.ZodType<T>, what: string, shape: string): T {
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch (error) {
    throw new MalformedApprovalRequestError(`${what} is not JSON`, { cause: error });
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new MalformedApprovalRequestError(`${what} must be ${shape}`);
  return parsed.data;
}

/**
 * The HTTP status a refused request is answered with, or `undefined` for an error that is no
 * refusal. A run-control refusal (lib/control/errors.ts) is the endpoint's to map: a run not
 * running is not found, any other conflicts with where the run is.
 */
export function refusalStatus(error: unknown): number | undefined {
  if (error instanceof ApprovalError) return error.status;
  if (error instanceof RunControlError) return error instanceof RunNotRunningError ? 404 : 409;
  return undefined;
}

/** A verified signed request, as the replay guard keys it. */
export interface SignedRequest {
  readonly signature: string;
  readonly timestamp: number;
  /** The route it came by: the same signature on another route is another request. */
  readonly channel: string;
}

/** Whether `seen` is the first copy of its signed request; it is remembered from now on. */
export function isFirstSighting(deps: EndpointDeps, seen: SignedRequest): Promise<boolean> {
  // Past the window the timestamp check refuses it anyway; a little longer covers clock skew.
  return deps.replays.firstSighting(
    `${seen.channel}:${seen.signature}`,
    seen.timestamp + 2 * SIGNATURE_WINDOW_SECONDS,
  );
}

/**
 * The decision id of one signed request: the same for each copy of it, so a sender that retries
 * it (after a 503 "answer again", or a reply it never got) gives the same answer again, which
 * the one decision delivers at most once.
 */
export const decisionIdOf = (signature: string) =>
  `sig-${createHash('sha256').update(signature).digest('hex').slice(0, 32)}`;

/** A decision as the one who asked is told it. */
export function outcomeText(outcome: DecideOutcome): string {
  return outcome.kind === 'already-decided'
    ? `Already decided: ${decisionLine(outcome.decision)}`
    : decisionLine(outcome.decision);
}

/** A private message that must not undo the answer when Slack cannot take it: logged instead. */
export async function tellSafely(
  deps: EndpointDeps,
  slack: NonNullable<EndpointDeps['slack']>,
  actor: SlackActor,
  text: string,
): Promise<void> {
  try {
    await slack.api.tellPrivately(actor.channelId, actor.userId, text);
  } catch (error) {
    deps.log.warn('Private message not sent', { reason: error instanceof Error ? error.name : 'unknown' });
  }
}
