/**
 * The approval endpoint's run-control routes: a run's Pause / Stop button in Slack, and the
 * signed webhook request `{"runId", "request": "pause"|"resume"|"stop", "requestedBy"}`
 * (`POST /webhook/requests`). Each is verified as answers are (signature, timestamp window),
 * accepted once (a copy of a signed request is refused: unlike an answer, a request has no
 * question whose openness tells a retry from a replay), checked against the allow-list that
 * answers are checked against, and only then handed to {@link controlRun}. A refused Slack user is
 * told why privately; nothing is written for a refused request.
 */
import * as z from 'zod';
import { RunNotRunningError } from '../control/errors';
import { type ControlRequest, describeRequester, isControlVerb } from '../control/requests';
import type { PendingApproval } from '../stores/approval-store';
import { isFleetControlKey } from '../stores/fleet-control-key';
import { checkSlackActor, checkWebhookKey } from './allow-list';
import { type AnswerRequest, decideQuestion } from './decide';
import {
  type ApprovalHttpResponse,
  decisionIdOf,
  type EndpointDeps,
  isFirstSighting,
  json,
  outcomeText,
  readWebhookJson,
  refusalStatus,
  type SignedRequest,
  tellSafely,
} from './endpoint-kit';
import {
  AnswererNotAllowedError,
  ApprovalReplayError,
  MalformedApprovalRequestError,
  RunControlOffError,
} from './errors';
import { controlFleet, type FleetControlOutcome } from './fleet-control';
import {
  type AnsweringRequest,
  controlRun,
  type RunControlCall,
  type RunControlOutcome,
} from './run-control';
import { verifyWebhookSignature } from './signatures';
import type { SlackInteraction } from './slack-interaction';

/** Refuses a second copy of one signed request. */
async function refuseCopy(deps: EndpointDeps, seen: SignedRequest): Promise<void> {
  if (!(await isFirstSighting(deps, seen))) throw new ApprovalReplayError();
}

/** What the requester is told the request came to. */
export function controlOutcomeText(request: ControlRequest, outcome: RunControlOutcome): string {
  const jobs = outcome.jobs.map((key) => `"${key.jobId}"`).join(', ');
  switch (outcome.kind) {
    case 'answered':
      return outcomeText(outcome.outcome);
    case 'withdrawn':
      return `Pause of job ${jobs} withdrawn by ${describeRequester(request)}: the run goes on.`;
    case 'recorded':
      return request.verb === 'pause'
        ? `Pause of job ${jobs} requested by ${describeRequester(request)}: the run pauses before its next batch.`
        : `Stop of job ${jobs} requested by ${describeRequester(request)}: the run stops before its next batch.`;
  }
}

/** What a request came to: a run's, or a fleet's (its own outcome, and each parked job's). */
type SteerOutcome = RunControlOutcome | { readonly kind: 'fleet'; readonly fleet: FleetControlOutcome };

/**
 * Runs one verified, allowed request for the run that holds its jobs, or for the fleet run whose
 * item it holds (a fleet's run ID), and logs what it came to.
 */
async function steer(deps: EndpointDeps, call: Omit<RunControlCall, 'jobs'>): Promise<SteerOutcome> {
  const lock = deps.lock;
  if (lock === undefined) throw new RunControlOffError('Run control is not configured for this deployment');
  const [first, ...rest] = await lock.keysHeldBy(call.runId);
  if (first === undefined)
    throw new RunNotRunningError(
      `No running restart has run id "${call.runId}": it has ended or never existed`,
    );
  const questions = {
    approvals: deps.decide.approvals,
    answer: (_question: PendingApproval, answer: AnswerRequest) => decideQuestion(deps.decide, answer),
  };
  let outcome: SteerOutcome;
  if (isFleetControlKey(first, call.runId)) {
    const machine = deps.restartStateMachineArn;
    const fleet = await controlFleet(
      {
        lock,
        ...(machine === undefined
          ? {}
          : {
              questions: {
                ...questions,
                pending: () => questions.approvals.listPending({ stateMachineArn: machine }),
              },
            }),
      },
      { ...call, fleetRunId: call.runId },
    );
    outcome = { kind: 'fleet', fleet };
  } else {
    outcome = await controlRun({ lock, questions }, { ...call, jobs: [first, ...rest] });
  }
  deps.log.info('Run control request handled', {
    verb: call.request.verb,
    via: call.request.via,
    outcome: outcome.kind,
    jobs: outcome.kind === 'fleet' ? outcome.fleet.jobs.length : outcome.jobs.length,
  });
  return outcome;
}

/** What the requester is told a request came to. */
function steerOutcomeText(request: ControlRequest, runId: string, outcome: SteerOutcome): string {
  if (outcome.kind !== 'fleet') return controlOutcomeText(request, outcome);
  const answered = outcome.fleet.jobs.map((job) => ` ${controlOutcomeText(request, job)}`).join('');
  const said: Readonly<Record<ControlRequest['verb'], string>> = {
    pause: 'each of its jobs pauses before its next batch.',
    resume: 'its jobs go on.',
    stop: 'each of its jobs stops before its next batch.',
  };
  return `${VERB_NOUN[request.verb]} of fleet run "${runId}" requested by ${describeRequester(request)}: ${said[request.verb]}${answered}`;
}

const VERB_NOUN: Readonly<Record<ControlRequest['verb'], string>> = {
  pause: 'Pause',
  resume: 'Resume',
  stop: 'Stop',
};

/** The Slack Pause / Stop button: the outcome, or why it was refused, is told privately. */
export async function handleSlackControl(
  deps: EndpointDeps,
  slack: NonNullable<EndpointDeps['slack']>,
  interaction: Extract<SlackInteraction, { readonly kind: 'control' }>,
  seen: SignedRequest,
): Promise<ApprovalHttpResponse> {
  const { actor } = interaction;
  const request: AnsweringRequest = {
    verb: interaction.verb,
    requestedBy: actor.userId,
    via: 'slack',
    at: deps.now(),
  };
  let text: string;
  try {
    await refuseCopy(deps, seen);
    checkSlackActor(slack.allow, actor);
    const outcome = await steer(deps, {
      runId: interaction.runId,
      request,
      answeredBy: `${actor.userName} (Slack ${actor.userId})`,
      decisionId: decisionIdOf(seen.signature),
    });
    text = steerOutcomeText(request, interaction.runId, outcome);
  } catch (error) {
    const status = refusalStatus(error);
    if (status === undefined || !(error instanceof Error)) throw error;
    deps.log.warn('Run control request refused', { reason: error.name, status });
    // Slack shows its own generic error for anything but a 200: the user is told why instead.
    text =
      error instanceof AnswererNotAllowedError
        ? 'You are not allowed to pause or stop nomad-restart runs.'
        : error.message;
  }
  await tellSafely(deps, slack, actor, text);
  return json(200, {});
}

const webhookRequest = z.object({
  runId: z.string().min(1),
  request: z.string(),
  requestedBy: z.string().min(1).max(200),
});

/** `POST /webhook/requests`: 200 with what the request came to, or the refusal's status and reason. */
export async function handleWebhookRequest(
  deps: EndpointDeps,
  request: { readonly headers: Readonly<Record<string, string | undefined>>; readonly body: string },
): Promise<ApprovalHttpResponse> {
  const webhook = deps.webhook;
  if (webhook === undefined) return json(404, { message: 'Not found' });
  const { keyId, signature, timestamp } = verifyWebhookSignature(
    request.headers,
    request.body,
    webhook.keys,
    deps.now(),
  );
  const body = readWebhookRequest(request.body);
  await refuseCopy(deps, { signature, timestamp, channel: 'webhook-request' });
  checkWebhookKey(webhook.allowedKeyIds, keyId);
  const control: AnsweringRequest = {
    verb: body.verb,
    requestedBy: body.requestedBy,
    via: 'webhook',
    at: deps.now(),
  };
  // A refusal is answered with its status by the endpoint, as an answer's is.
  const outcome = await steer(deps, {
    runId: body.runId,
    request: control,
    answeredBy: `${body.requestedBy} (webhook key ${keyId})`,
    decisionId: decisionIdOf(signature),
  });
  const kind = outcome.kind === 'fleet' ? outcome.fleet.kind : outcome.kind;
  return json(200, { outcome: kind, message: steerOutcomeText(control, body.runId, outcome) });
}

/** The webhook request's body, or a 400 naming the field and quoting the value. */
function readWebhookRequest(text: string): {
  runId: string;
  verb: ControlRequest['verb'];
  requestedBy: string;
} {
  const { runId, request, requestedBy } = readWebhookJson(
    text,
    webhookRequest,
    'Webhook request',
    '{"runId": string, "request": "pause"|"resume"|"stop", "requestedBy": string}',
  );
  if (!isControlVerb(request)) {
    throw new MalformedApprovalRequestError(
      `Webhook request "request" must be "pause", "resume" or "stop", got ${JSON.stringify(request)}`,
    );
  }
  return { runId, verb: request, requestedBy };
}
