/**
 * Steering a running restart (lib/control/requests.ts), whoever asks: the webhook and Slack
 * endpoint (lib/approvals/control-endpoint.ts) and `nomad-restart pause|resume|stop <execution
 * ARN>` (lib/engines/aws/control-run.ts). A `pause` or `stop` is recorded beside the run's lock,
 * where its next safe point reads it; a run already parked on its pause question waits on a task
 * token instead, so `resume` answers that question yes and `stop` answers it no, through the one
 * decision (lib/approvals/decide.ts). Callers find the run and the jobs it holds, and bring their
 * own clients (retries, error wording); the steering is decided here only.
 */
import { RunAlreadyPausedError, RunNotPausedError, RunNotRunningError } from '../control/errors';
import type { ControlRequest } from '../control/requests';
import { goQuote } from '../go/quote';
import { type ApprovalStore, type PendingApproval, stateMachineArnOf } from '../stores/approval-store';
import type { JobLock, LockKey } from '../stores/job-lock';
import type { AnswerRequest, DecideOutcome } from './decide';

/** The question kind a pause parks (lib/workflow/payloads.ts `PendingQuestion.kind`). */
export const PAUSE_QUESTION_KIND = 'pause';

/** What {@link controlRun} works with. */
export interface RunControlDeps {
  /** The run's lock, where a request is recorded for its next safe point. */
  readonly lock: Pick<JobLock, 'requestControl' | 'controlRequest' | 'clearControlRequest'>;
  /**
   * The pending questions, where a run parked on its pause question is found and answered.
   * @default - none: the run is not looked for among parked questions (a pause is recorded)
   */
  readonly questions?: ParkedQuestions;
}

/** Where a run parked on its pause question is found, and how that question is answered. */
export interface ParkedQuestions {
  readonly approvals: Pick<ApprovalStore, 'listPending' | 'get'>;
  /** Answers the parked question through the one decision (`decideQuestion`), with the caller's clients. */
  readonly answer: (question: PendingApproval, answer: AnswerRequest) => Promise<DecideOutcome>;
}

/** A request from a channel that may answer a question (the terminal, Slack, the webhook). */
export type AnsweringRequest = ControlRequest & { readonly via: AnswerRequest['via'] };

/** The jobs a run holds (its lock table's owner index): at least one. */
export type HeldJobs = readonly [LockKey, ...LockKey[]];

/** One attributed request for one run. */
export interface RunControlCall {
  /** The run: its first execution's ARN (what owns the lock, and what its questions name). */
  readonly runId: string;
  readonly jobs: HeldJobs;
  readonly request: AnsweringRequest;
  /** Who asked, as a decision records it (`alice (Slack U1)`). */
  readonly answeredBy: string;
  /** The same for every copy of one request: a retried one decides a question at most once. */
  readonly decisionId: string;
}

/** What a request came to. */
export type RunControlOutcome =
  /** Recorded for the run's next safe point, on each job it holds. */
  | { readonly kind: 'recorded'; readonly jobs: HeldJobs }
  /** Answered the pause question the run is parked on (resume: yes, stop: no). */
  | { readonly kind: 'answered'; readonly jobs: HeldJobs; readonly outcome: DecideOutcome }
  /** A resume that took back a pause the run had not reached yet. */
  | { readonly kind: 'withdrawn'; readonly jobs: HeldJobs };

/**
 * Steers run `call.runId` as `call.request` asks.
 * @throws RunAlreadyPausedError for a pause of a run parked on its pause question
 * @throws RunNotPausedError for a resume of a run neither parked nor asked to pause
 * @throws RunNotRunningError when the run released its lock while the request was recorded
 */
export async function controlRun(deps: RunControlDeps, call: RunControlCall): Promise<RunControlOutcome> {
  const { jobs, request } = call;
  const { questions } = deps;
  const parked = questions === undefined ? undefined : await parkedPause(questions.approvals, call.runId);
  if (parked !== undefined && request.verb === 'pause')
    throw new RunAlreadyPausedError(
      `${restartOf(jobs[0])} is already paused: its question ${goQuote(parked.approvalId)} waits for an answer (resume or stop it)`,
    );
  if (parked !== undefined && questions !== undefined) {
    const outcome = await questions.answer(parked, {
      approvalId: parked.approvalId,
      reply: request.verb === 'resume' ? 'yes' : 'no',
      answeredBy: call.answeredBy,
      via: request.via,
      decisionId: call.decisionId,
    });
    return { kind: 'answered', jobs, outcome };
  }
  if (request.verb === 'resume') return withdrawPause(deps, call);
  for (const key of jobs) {
    // Released between the caller's owner-index read and this write: the run has just ended.
    if (!(await deps.lock.requestControl(key, call.runId, request)))
      throw new RunNotRunningError(`${restartOf(key)} is not running: it has just ended`);
  }
  return { kind: 'recorded', jobs };
}

/** A resume before the safe point: the pause recorded for it is taken back, on each job. */
async function withdrawPause(deps: RunControlDeps, call: RunControlCall): Promise<RunControlOutcome> {
  let withdrawn = false;
  for (const key of call.jobs) {
    const recorded = await deps.lock.controlRequest(key, call.runId);
    if (recorded?.verb !== 'pause') continue;
    await deps.lock.clearControlRequest(key, call.runId, recorded);
    withdrawn = true;
  }
  if (!withdrawn)
    throw new RunNotPausedError(`${restartOf(call.jobs[0])} is not paused: there is nothing to resume`);
  return { kind: 'withdrawn', jobs: call.jobs };
}

/**
 * The pause questions among `pending` whose run `isRun` accepts, each with its run. The pending
 * index does not hold the run: each pause question is read (few are ever open). The ask step names
 * the run on every question it parks, so a question asked by a continued execution (another
 * execution ARN, the same run) is found too.
 */
export async function parkedPauses(
  approvals: Pick<ApprovalStore, 'get'>,
  pending: readonly PendingApproval[],
  isRun: (runId: string, question: PendingApproval) => boolean,
): Promise<(PendingApproval & { readonly runId: string })[]> {
  const parked: (PendingApproval & { readonly runId: string })[] = [];
  for (const question of pending.filter((q) => q.kind === PAUSE_QUESTION_KIND)) {
    const { runId } = await approvals.get(question.approvalId);
    if (runId !== undefined && isRun(runId, question)) parked.push({ ...question, runId });
  }
  return parked;
}

/** The pause question run `runId` is parked on, if any (see {@link parkedPauses}). */
async function parkedPause(
  approvals: ParkedQuestions['approvals'],
  runId: string,
): Promise<PendingApproval | undefined> {
  const stateMachineArn = stateMachineArnOf(runId);
  // A run is named by its first execution's ARN; anything else parked no question, and a listing
  // without the state machine would read the whole table (a Scan nobody is granted).
  if (stateMachineArn === undefined) return undefined;
  const pending = await approvals.listPending({ stateMachineArn });
  return (await parkedPauses(approvals, pending, (parkedRun) => parkedRun === runId))[0];
}

function restartOf(key: LockKey): string {
  return `The restart of job ${goQuote(key.jobId)} in namespace ${goQuote(key.namespace)}`;
}
