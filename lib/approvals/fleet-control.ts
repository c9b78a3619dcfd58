/**
 * Steering a fleet run (docs/run-control.md, "A fleet"), whoever asks: `nomad-restart
 * pause|resume|stop <fleet execution ARN>` (lib/engines/aws/control-run.ts) and the webhook with a
 * fleet's run ID (lib/approvals/control-endpoint.ts). The request is recorded once, on the fleet's
 * item of the lock table (lib/stores/fleet-control-key.ts), which every job of the fleet reads at
 * its safe point. A job already parked on its pause question waits on a task token instead and
 * never reads the item again: `resume` and `stop` answer each such question, one job at a time,
 * through {@link controlRun} as a request for that job's run would.
 */
import { RunNotPausedError, RunNotRunningError } from '../control/errors';
import { executionName } from '../fleet/execution-name';
import { goQuote } from '../go/quote';
import type { PendingApproval } from '../stores/approval-store';
import { fleetControlKey } from '../stores/fleet-control-key';
import type { JobLock } from '../stores/job-lock';
import {
  type AnsweringRequest,
  controlRun,
  type ParkedQuestions,
  parkedPauses,
  type RunControlDeps,
  type RunControlOutcome,
} from './run-control';

/** What {@link controlFleet} works with. */
export interface FleetControlDeps {
  /** The lock table: the fleet's item, its jobs' items, and the owner index (is the fleet running?). */
  readonly lock: RunControlDeps['lock'] & Pick<JobLock, 'keysHeldBy'>;
  /** Where the fleet's parked jobs are found and answered; none for a `pause`, which answers nothing. */
  readonly questions?: ParkedQuestions & {
    /**
     * The undecided questions among which the fleet's jobs' pause questions are: the one-job state
     * machine's, or every one the caller may list.
     */
    readonly pending: () => Promise<PendingApproval[]>;
  };
}

/** One attributed request for one fleet run. */
export interface FleetControlCall {
  /** The fleet run: its execution's name (what holds its item, and what names its jobs' executions). */
  readonly fleetRunId: string;
  readonly request: AnsweringRequest;
  /** Who asked, as a decision records it. */
  readonly answeredBy: string;
  /** The same for every copy of one request (each job's answer is derived from it). */
  readonly decisionId: string;
}

/** What a fleet request came to. */
export interface FleetControlOutcome {
  /** `recorded` on the fleet's item (pause, stop), or a resume that took the fleet's pause back. */
  readonly kind: 'recorded' | 'withdrawn' | 'answered';
  /** Each parked job's request, answered (resume: yes, stop: no). */
  readonly jobs: readonly RunControlOutcome[];
}

/**
 * Steers fleet run `call.fleetRunId` as `call.request` asks.
 * @throws RunNotRunningError when the fleet holds no item (it has ended)
 * @throws RunNotPausedError for a resume of a fleet neither asked to pause nor with a parked job
 */
export async function controlFleet(
  deps: FleetControlDeps,
  call: FleetControlCall,
): Promise<FleetControlOutcome> {
  const { fleetRunId, request } = call;
  const key = fleetControlKey(fleetRunId);
  const parked = request.verb === 'pause' ? [] : await parkedJobs(deps, fleetRunId);
  let kind: FleetControlOutcome['kind'] = 'recorded';
  if (request.verb === 'resume') {
    const recorded = await deps.lock.controlRequest(key, fleetRunId);
    // Taken back before any job is answered: an answered job would otherwise park again at its
    // next safe point, on the fleet's pause still recorded.
    if (recorded?.verb === 'pause') await deps.lock.clearControlRequest(key, fleetRunId, recorded);
    else if (parked.length === 0) throw await notPausedOrEnded(deps, fleetRunId);
    kind = recorded?.verb === 'pause' ? 'withdrawn' : 'answered';
  } else if (!(await deps.lock.requestControl(key, fleetRunId, request))) {
    throw notRunning(fleetRunId);
  }
  const jobs: RunControlOutcome[] = [];
  for (const question of parked) {
    const outcome = await answerJob(deps, call, question);
    if (outcome !== undefined) jobs.push(outcome);
  }
  return { kind, jobs };
}

/** The fleet's jobs parked on their pause question: their executions are named after the fleet run. */
async function parkedJobs(deps: FleetControlDeps, fleetRunId: string): Promise<PendingApproval[]> {
  const questions = deps.questions;
  if (questions === undefined) return [];
  // A fleet starts each job's execution under a name derived from the fleet run and the job
  // (lib/fleet/execution-name.ts); a continued execution keeps the run's first ARN as its run.
  return parkedPauses(
    questions.approvals,
    await questions.pending(),
    (runId, question) =>
      runId.slice(runId.lastIndexOf(':') + 1) ===
      executionName(fleetRunId, question.namespace, question.jobId),
  );
}

/**
 * The job's request, through the one-job steering; `undefined` when the job no longer waits on it
 * (answered meanwhile, or ended): the fleet's request reached it already.
 */
async function answerJob(
  deps: FleetControlDeps,
  call: FleetControlCall,
  question: PendingApproval,
): Promise<RunControlOutcome | undefined> {
  const { runId } = question;
  if (runId === undefined) return undefined;
  try {
    return await controlRun(deps, {
      runId,
      jobs: [{ namespace: question.namespace, jobId: question.jobId }],
      request: call.request,
      answeredBy: call.answeredBy,
      // One decision per job, the same for every copy of the request.
      decisionId: `${call.decisionId}/${question.approvalId}`,
    });
  } catch (error) {
    if (error instanceof RunNotPausedError || error instanceof RunNotRunningError) return undefined;
    throw error;
  }
}

/** Why a resume found nothing to resume: the fleet ended, or it was never paused. */
async function notPausedOrEnded(deps: FleetControlDeps, fleetRunId: string): Promise<Error> {
  const held = await deps.lock.keysHeldBy(fleetRunId);
  if (!held.some((k) => k.jobId === fleetControlKey(fleetRunId).jobId)) return notRunning(fleetRunId);
  return new RunNotPausedError(
    `The fleet run ${goQuote(fleetRunId)} is not paused: there is nothing to resume`,
  );
}

function notRunning(fleetRunId: string): RunNotRunningError {
  return new RunNotRunningError(`The fleet run ${goQuote(fleetRunId)} is not running: it has ended`);
}
