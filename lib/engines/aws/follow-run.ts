/**
 * Follows a run on AWS to its end: reads each execution's new history, renders the progress
 * events the steps wrote, answers the questions the run parks, honours a confirmed interrupt
 * for the whole chain, and moves on to each continue-as-new successor. Shared by a start
 * (`-engine=aws`) and by `attach`. A transient AWS failure never ends it (the calls retry for
 * as long as it lasts); only an answer about the call itself does (access denied, no such
 * execution), and then the command says the run may still be going on and how to attach to it.
 */

import { goQuote } from '../../go/quote';
import type { ProgressEvent } from '../../restart/events';
import type { LockKey } from '../../stores/job-lock';
import { exitStatusOf } from '../../workflow/exit-status';
import { AskedQuestion, isQuestionEnd } from './asked-question';
import type { AwsSession } from './aws-session';
import { type CancelRequest, findLateSuccessor, requestCancel, stopExecution } from './cancel';
import { RemoteEngineError } from './errors';
import { ExecutionTracker } from './execution-tracker';
import { HistoryFollower, type HistoryPageSizes } from './history-follower';
import { type AskQuestion, QuestionBridge } from './question-bridge';

/** Default pause between two history reads while something happens. */
export const DEFAULT_POLL_INTERVAL_MS = 1000;
/** While nothing happens the pause grows, up to this many times the interval. */
const MAX_BACKOFF_FACTOR = 4;

/** What following a run needs. */
export interface FollowRunRequest {
  readonly session: AwsSession;
  /** The run's first execution (it holds the job lock); following starts there. */
  readonly runId: string;
  /** Renders a progress event (the CLI's one formatter); called once per event, in order. */
  readonly emit: (event: ProgressEvent) => void;
  /** Asks the run's questions (see {@link AskQuestion}). */
  readonly ask: AskQuestion;
  /** Who answers the run's questions here, for the record and for chat (`user@host`). */
  readonly answeredBy: string;
  /** Aborted when an interrupt is confirmed: the run is canceled (see `cancel.ts`). */
  readonly signal?: AbortSignal;
  /** Pause between history reads, in ms. @default 1000 */
  readonly pollIntervalMs?: number;
  /** History page sizes. @default - 10 first, 100 when widened */
  readonly historyPageSizes?: HistoryPageSizes;
  /** Prints one error line, on stderr in the formatter's style. */
  readonly printError: (message: string) => void;
}

/** How following ended. */
export interface FollowResult {
  /** Nomad's exit code. */
  readonly exitCode: 0 | 1;
  /**
   * The last execution's status (`SUCCEEDED`, `FAILED`, `ABORTED`, `TIMED_OUT`), `NOT_STARTED`
   * when nothing was started or found (bad input, `StartExecution` failed, no such execution), or
   * `UNKNOWN` when the execution could not be followed to its end.
   */
  readonly status: string;
  /** Every execution of the chain followed, first to last. */
  readonly executionArns: string[];
}

/** Follows the run to its end; an AWS error that is an answer ends it with exit code 1. */
export async function followRun(request: FollowRunRequest): Promise<FollowResult> {
  const executionArns = [request.runId];
  try {
    return await followChain(request, executionArns);
  } catch (error) {
    if (!(error instanceof RemoteEngineError)) throw error;
    const current = executionArns.at(-1) ?? request.runId;
    request.printError(error.message);
    request.printError(
      `Execution ${goQuote(current)} may still be running in AWS Step Functions; follow it again with: nomad-restart attach ${current}`,
    );
    return { exitCode: 1, status: 'UNKNOWN', executionArns };
  }
}

async function followChain(request: FollowRunRequest, executionArns: string[]): Promise<FollowResult> {
  const { session, signal } = request;
  const { calls } = session;
  const canceled = signal ?? new AbortController().signal;
  const baseInterval = Math.max(0, request.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS);
  const bridge = new QuestionBridge({
    calls,
    approvals: session.approvals,
    ask: request.ask,
    canceled,
    answeredBy: request.answeredBy,
    printError: request.printError,
    retry: session.patientRetry,
  });
  const question = new AskedQuestion(bridge);
  const cancelDeps = {
    calls,
    lock: session.lock,
    retry: session.patientRetry,
    printError: request.printError,
  };
  let executionArn = request.runId;
  let follower = new HistoryFollower(calls, executionArn, request.historyPageSizes);
  let tracker = new ExecutionTracker(executionArn);
  const asked = new Set<string>();
  let cancel: CancelRequest | undefined;
  let interval = baseInterval;

  for (;;) {
    session.notice.executionArn = executionArn;
    const fresh = await follower.poll();
    for (const historyEvent of fresh) {
      for (const event of tracker.apply(historyEvent)) {
        // Answered elsewhere (or timed out): the read here is withdrawn, and the line says so.
        if (isQuestionEnd(event) && !(await question.ended())) continue;
        // After a confirmed interrupt Nomad prints nothing more of the batch in flight.
        if (!canceled.aborted) request.emit(event);
      }
    }
    question.throwIfFailed();
    if (canceled.aborted && cancel === undefined && tracker.end === undefined) {
      // The run's identity is its first execution, whichever one runs now.
      cancel = await requestCancel(cancelDeps, { runId: request.runId, executionArn }, tracker.lockedJob);
    }

    const end = tracker.end;
    if (end !== undefined) {
      await question.close();
      const successor = await successorOf(tracker, cancel, calls);
      if (successor === undefined) {
        const status = exitStatusOf(end, { executionArn, stoppedByUs: cancel === 'stopped' });
        if (status.message !== undefined) request.printError(status.message);
        return { exitCode: status.exitCode, status: end.status, executionArns };
      }
      const inherited: LockKey | undefined = tracker.lockedJob;
      executionArns.push(successor);
      executionArn = successor;
      follower = new HistoryFollower(calls, successor, request.historyPageSizes);
      tracker = new ExecutionTracker(successor, inherited);
      interval = baseInterval;
      // Stop the chain, not one link: a stopped run's successor is stopped as soon as it is known.
      // (An interrupt confirmed as the last link ended is requested on the successor instead.)
      if (cancel === 'stopped') await stopExecution(calls, successor);
      continue;
    }

    const pending = tracker.pendingAsk;
    const askKey = pending === undefined ? '' : `${executionArn}#${pending.scheduledEventId}`;
    // A stopped execution's question has no one left to answer it.
    if (pending !== undefined && !asked.has(askKey) && cancel !== 'stopped') {
      asked.add(askKey);
      question.start(executionArn, pending);
    }

    // An answer typed here wakes the follower, so the run's next lines come at once.
    const answeredHere = new AbortController();
    void question.settling()?.then(() => answeredHere.abort());
    const interrupt = cancel === undefined ? signal : undefined;
    await pause(interval, AbortSignal.any([answeredHere.signal, ...(interrupt ? [interrupt] : [])]));
    interval = fresh.length > 0 ? baseInterval : Math.min(interval * 1.5, baseInterval * MAX_BACKOFF_FACTOR);
  }
}

/**
 * The execution that continues the ended one, if any: the one its hand-over started, or, when
 * this command's stop cut the hand-over short, the one it may have started all the same.
 */
async function successorOf(
  tracker: ExecutionTracker,
  cancel: CancelRequest | undefined,
  calls: AwsSession['calls'],
): Promise<string | undefined> {
  const successor = tracker.successorArn;
  if (successor !== undefined) return successor;
  const possible = tracker.possibleSuccessorArn;
  if (cancel !== 'stopped' || tracker.end?.status !== 'ABORTED' || possible === undefined) return undefined;
  return (await findLateSuccessor(calls, possible, (ms) => pause(ms, undefined))) ? possible : undefined;
}

/** Waits `ms`, or less when `wake` aborts (an interrupt is acted on at once). */
function pause(ms: number, wake: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (wake?.aborted || ms <= 0) return resolve();
    const done = () => {
      clearTimeout(timer);
      wake?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    wake?.addEventListener('abort', done, { once: true });
  });
}
