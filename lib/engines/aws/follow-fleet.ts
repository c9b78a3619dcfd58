/**
 * Follows a fleet run on AWS to its end: the fleet execution's own events (`fleet-tracker.ts`),
 * and each job's lines as they happen, by following its one-job execution exactly as a one-job run
 * is followed (`follow-run.ts`: its questions asked here, an interrupt honoured at its next safe
 * point), each event tagged with its job.
 *
 * A confirmed interrupt cancels every running job at its next safe point (each job's follower
 * does, as for one job), and once they ended the fleet execution is stopped, so no further job
 * starts; a job that starts meanwhile is canceled before its first batch the same way.
 */

import type { FleetJobName, FleetProgressEvent } from '../../fleet/events';
import { jobEndOf, jobFinishedEvent } from '../../fleet/job-end';
import { goQuote } from '../../go/quote';
import { fleetExitStatusOf } from '../../workflow/exit-status';
import type { AwsSession } from './aws-session';
import { RemoteEngineError } from './errors';
import { FleetJobFinder, type StartedFleetJob } from './fleet-jobs';
import { FleetTracker } from './fleet-tracker';
import { DEFAULT_POLL_INTERVAL_MS, type FollowResult, followRun } from './follow-run';
import { HistoryFollower, type HistoryPageSizes } from './history-follower';
import type { AskQuestion } from './question-bridge';

/** Why this command stopped a fleet execution (its history and the console show it). */
export const FLEET_STOP_ERROR = 'FleetRestartCanceled';
const FLEET_STOP_CAUSE =
  'Stopped by nomad-restart fleet after an interrupt, once its running jobs were canceled';

/** What following a fleet run needs. */
export interface FollowFleetRequest {
  readonly session: AwsSession;
  /** The fleet execution. */
  readonly runId: string;
  /** Renders a fleet event or a job's event; called once per event, in each job's order. */
  readonly emit: (event: FleetProgressEvent) => void;
  /** Asks a job's questions (each names its job). */
  readonly askFor: (job: FleetJobName) => AskQuestion;
  /** Who answers the questions here (`user@host`). */
  readonly answeredBy: string;
  /** Aborted when an interrupt is confirmed. */
  readonly signal?: AbortSignal;
  /** Pause between history reads, in ms. @default 1000 */
  readonly pollIntervalMs?: number;
  readonly historyPageSizes?: HistoryPageSizes;
  /** Prints one error line (a job's, named, or the fleet's). */
  readonly printError: (message: string, job?: FleetJobName) => void;
}

/** Follows the fleet run to its end; an AWS error that is an answer ends it with exit code 1. */
export async function followFleet(request: FollowFleetRequest): Promise<FollowResult> {
  try {
    return await followFleetExecution(request);
  } catch (error) {
    if (!(error instanceof RemoteEngineError)) throw error;
    request.printError(error.message);
    request.printError(
      `Fleet execution ${goQuote(request.runId)} may still be running in AWS Step Functions; follow it again with: nomad-restart attach ${request.runId}`,
    );
    return { exitCode: 1, status: 'UNKNOWN', executionArns: [request.runId] };
  }
}

async function followFleetExecution(request: FollowFleetRequest): Promise<FollowResult> {
  const { session, runId, signal } = request;
  const interval = Math.max(0, request.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS);
  const parent = new HistoryFollower(session.calls, runId, request.historyPageSizes);
  const tracker = new FleetTracker();
  const running = new Set<Promise<void>>();
  let finder: FleetJobFinder | undefined;
  let stopped = false;

  const follow = (job: StartedFleetJob) => {
    const name: FleetJobName = { namespace: job.namespace, job: job.job };
    request.emit({ type: 'job-started', time: Date.now(), index: job.index, of: job.of, ...name });
    const done = followRun({
      session,
      runId: job.executionArn,
      emit: (event) => request.emit({ ...event, ...name }),
      ask: request.askFor(name),
      answeredBy: request.answeredBy,
      ...(signal === undefined ? {} : { signal }),
      pollIntervalMs: interval,
      ...(request.historyPageSizes === undefined ? {} : { historyPageSizes: request.historyPageSizes }),
      printError: (message) => request.printError(message, name),
    });
    const tracked = done.then(() => {
      running.delete(tracked);
    });
    running.add(tracked);
  };

  for (;;) {
    for (const event of await parent.poll())
      for (const fleetEvent of tracker.apply(event)) request.emit(fleetEvent);
    if (tracker.mapRunArn !== undefined && tracker.end === undefined) {
      finder ??= new FleetJobFinder(session.calls, tracker.mapRunArn, request.historyPageSizes);
      const { started, ended } = await finder.poll();
      for (const job of started) follow(job);
      // Each job's end as the summary reads it (locked, failed, canceled...), worded the same way.
      const ctx = { maxFailedJobs: tracker.plan?.budget.maxFailedJobs ?? 0 };
      for (const entry of ended) request.emit(jobFinishedEvent(jobEndOf(entry), Date.now(), ctx));
    }
    // Interrupted: the jobs' followers cancel their jobs; once none runs, no further one may start.
    if (signal?.aborted && !stopped && running.size === 0 && tracker.end === undefined) {
      stopped = true;
      await session.calls.stopExecution(runId, FLEET_STOP_ERROR, FLEET_STOP_CAUSE);
    }
    const end = tracker.end;
    if (end !== undefined && running.size === 0) {
      const status = fleetExitStatusOf(end, { executionArn: runId, stoppedByUs: stopped });
      if (status.message !== undefined) request.printError(status.message);
      return { exitCode: status.exitCode, status: end.status, executionArns: [runId] };
    }
    await Promise.race([new Promise((resolve) => setTimeout(resolve, interval)), ...running]);
  }
}
