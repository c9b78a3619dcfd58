/**
 * Run control from chat and the webhook (lib/control/requests.ts): a `pause` or `stop` is recorded
 * beside the run's lock (the lock table on AWS), where the run's next safe point reads it; a
 * `resume` answers the run's parked pause question yes through the one decision
 * (lib/approvals/decide.ts), and a `stop` answers it no, so a paused run is steered the same way
 * whoever asks. Nothing is written for a run that holds no lock any more (ended, or never was).
 */
import type { ControlRequest } from '../control/requests';
import { goQuote } from '../go/quote';
import { type PendingApproval, stateMachineArnOf } from '../stores/approval-store';
import type { JobLock, LockKey } from '../stores/job-lock';
import { type DecideDeps, type DecideOutcome, decideQuestion } from './decide';
import { RunControlConflictError, RunNotRunningError } from './errors';

/** The question kind a pause parks (lib/workflow/payloads.ts `PendingQuestion.kind`). */
export const PAUSE_QUESTION_KIND = 'pause';

/** What {@link controlRun} works with. */
export interface RunControlDeps {
  /** The run's lock: which jobs it holds, and where a request is recorded for its next safe point. */
  readonly lock: Pick<JobLock, 'keysHeldBy' | 'requestControl' | 'controlRequest' | 'clearControlRequest'>;
  /** The one decision, for a run parked on its pause question. */
  readonly decide: DecideDeps;
}

/** One attributed request for one run. */
export interface RunControlCall {
  /** The run: its first execution's ARN (what owns the lock). */
  readonly runId: string;
  readonly request: ControlRequest;
  /** Who asked, as a decision records it (`alice (Slack U1)`). */
  readonly answeredBy: string;
  /** The same for every copy of one signed request: a retried one decides a question at most once. */
  readonly decisionId: string;
}

/** What a request came to. */
export type RunControlOutcome =
  /** Recorded for the run's next safe point, on each job it holds. */
  | { readonly kind: 'recorded'; readonly jobs: readonly LockKey[] }
  /** Answered the pause question the run is parked on (resume: yes, stop: no). */
  | { readonly kind: 'answered'; readonly jobs: readonly LockKey[]; readonly outcome: DecideOutcome }
  /** A resume that took back a pause the run had not reached yet. */
  | { readonly kind: 'withdrawn'; readonly jobs: readonly LockKey[] };

/**
 * Steers run `call.runId` as `call.request` asks.
 * @throws RunNotRunningError when the run holds no job's lock (it ended, or never existed).
 * @throws RunControlConflictError for a resume of a run neither paused nor asked to pause, and for a
 *   pause of a run already parked on its pause question.
 */
export async function controlRun(deps: RunControlDeps, call: RunControlCall): Promise<RunControlOutcome> {
  const jobs = await deps.lock.keysHeldBy(call.runId);
  const first = jobs[0];
  if (first === undefined) throw new RunNotRunningError(call.runId);
  const { verb } = call.request;
  const parked = await parkedPauseQuestion(deps.decide, call.runId);
  if (parked !== undefined && verb !== 'pause') {
    const outcome = await decideQuestion(deps.decide, {
      approvalId: parked.approvalId,
      reply: verb === 'resume' ? 'yes' : 'no',
      answeredBy: call.answeredBy,
      via: call.request.via === 'slack' ? 'slack' : 'webhook',
      decisionId: call.decisionId,
    });
    return { kind: 'answered', jobs, outcome };
  }
  if (parked !== undefined)
    throw new RunControlConflictError(`Restart of job ${goQuote(first.jobId)} is already paused`);
  if (verb === 'resume') return withdrawPause(deps, call, jobs);
  for (const key of jobs) await deps.lock.requestControl(key, call.runId, call.request);
  return { kind: 'recorded', jobs };
}

/** A resume before the safe point: the pause recorded for it is taken back, on each job. */
async function withdrawPause(
  deps: RunControlDeps,
  call: RunControlCall,
  jobs: readonly LockKey[],
): Promise<RunControlOutcome> {
  let withdrawn = false;
  for (const key of jobs) {
    const recorded = await deps.lock.controlRequest(key, call.runId);
    if (recorded?.verb !== 'pause') continue;
    await deps.lock.clearControlRequest(key, call.runId, recorded);
    withdrawn = true;
  }
  if (!withdrawn)
    throw new RunControlConflictError(`Restart of job ${goQuote(jobs[0]?.jobId ?? '')} is not paused`);
  return { kind: 'withdrawn', jobs };
}

/**
 * The pause question run `runId` is parked on, if any: an undecided `pause` question the ask step
 * parked for it (it names the run on every question it parks).
 */
async function parkedPauseQuestion(decide: DecideDeps, runId: string): Promise<PendingApproval | undefined> {
  const stateMachineArn = stateMachineArnOf(runId);
  const pending = await decide.approvals.listPending(
    stateMachineArn === undefined ? undefined : { stateMachineArn },
  );
  for (const question of pending.filter((q) => q.kind === PAUSE_QUESTION_KIND)) {
    // The pending index does not hold the run: each pause question is read (few are ever open).
    if ((await decide.approvals.get(question.approvalId)).runId === runId) return question;
  }
  return undefined;
}
