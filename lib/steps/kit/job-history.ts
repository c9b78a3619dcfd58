/**
 * A job's run in the job's restart history (issue #40, lib/history): its provisional record when
 * "Lock job" takes the job, its final one where the run ends ("Finish restart", "Lock job" for a
 * skipped scheduled run, "Release lock after error", the cleanup after an execution died), and the
 * run-level events (`run-started`, `run-ended`) that `-output json` streams and the metrics count.
 *
 * A history write never fails the run: the record is for people reading later, the restart is the
 * job. A failed write is warned of and the run goes on; a token that may not write the history is
 * the store's to warn of, once.
 */
import { type JobRunEnd, type JobRunFacts, recordOfRun, runCounts } from '../../history/job-record';
import type { RunEngine, RunRecord } from '../../history/record';
import type { HistoryPlace, RunHistory, UnfinishedEnd } from '../../history/run-history';
import type { ProgressEvent } from '../../restart/events';
import type { RestartOptions } from '../../restart/options';
import type { PlanRef, Progress, RunRef } from '../../workflow/payloads';

/** A step's access to the run history. */
export interface HistoryDeps {
  readonly store: RunHistory;
  /** Which engine runs the steps: the record says it (`terminal`: this process's local engine). */
  readonly engine: RunEngine;
  /** Told of a write that failed (Nomad unreachable, a conflict past the store's retries). */
  readonly warn: (message: string, err: unknown) => void;
}

/** What the steps of a planned run know of it. */
export interface JobRunState {
  readonly options: RestartOptions;
  readonly run: RunRef;
  readonly plan: PlanRef;
  /** `null` before the batch loop counted anything (the counts are then all zero). */
  readonly progress: Progress | null;
}

/**
 * Whether `plan` restarts nothing (`No allocations to restart`, an unknown task, every allocation
 * filtered out): it has no batch. Such a run costs Nomad's own requests only: it takes no lock,
 * writes no history record and reads no run-control request (docs/history.md).
 */
export const restartsNothing = (plan: Pick<PlanRef, 'batchCount'>): boolean => plan.batchCount === 0;

/** The history of `plan`'s job. */
export const jobHistoryPlace = (plan: Pick<PlanRef, 'namespace' | 'jobId'>): HistoryPlace => ({
  namespace: plan.namespace,
  jobId: plan.jobId,
});

/**
 * The facts of a run's record, as its state says them at `now`.
 * @param engine where the steps run; `terminal` when there is no history (the record is not written)
 */
export function jobRunFacts(state: JobRunState, engine: RunEngine, now: number): JobRunFacts {
  const { options, run, plan, progress } = state;
  return {
    options,
    runId: run.runId,
    executionId: run.executionId,
    startedBy: run.startedBy,
    // States from before `startedAt` was carried: the record starts when it is first written.
    startedAt: run.startedAt ?? now,
    engine,
    jobId: plan.jobId,
    namespace: plan.namespace,
    counts: runCounts(
      plan.allocationCount,
      progress?.restarted ?? 0,
      progress?.failed ?? 0,
      plan.skipped ?? {},
    ),
  };
}

/** Writes `record` to its job's history; a failure is warned of, never thrown. */
async function put(history: HistoryDeps | undefined, record: RunRecord): Promise<void> {
  if (history === undefined) return;
  try {
    await history.store.put(jobHistoryPlace(record), record);
  } catch (err) {
    history.warn(`Restart history not recorded for run "${record.runId}" of job "${record.jobId}"`, err);
  }
}

/** What the history steps need from the step kit. */
export interface HistoryKit {
  readonly history?: HistoryDeps | undefined;
  readonly now: () => number;
}

/**
 * The run holds the job: its provisional record (`running`, no end), and `run-started`.
 * @param emit the step's recorder
 */
export async function recordRunStarted(
  kit: HistoryKit,
  state: JobRunState,
  emit: (event: ProgressEvent) => void,
): Promise<void> {
  const facts = jobRunFacts(state, kit.history?.engine ?? 'terminal', kit.now());
  const record = recordOfRun(facts);
  emit({
    type: 'run-started',
    time: kit.now(),
    runId: record.runId,
    jobId: record.jobId,
    namespace: record.namespace,
    planned: state.plan.allocationCount,
    batches: state.plan.batchCount,
    startedBy: record.startedBy,
    ...(record.reason === undefined ? {} : { reason: record.reason }),
    ...(record.fleetRunId === undefined ? {} : { fleetRunId: record.fleetRunId }),
  });
  // A run that restarts nothing changes nothing: like a fleet with no job to restart, it writes
  // no record (docs/history.md), so a schedule that finds nothing costs Nomad's requests only.
  if (!restartsNothing(state.plan)) await put(kit.history, record);
}

/**
 * The run ended as `end` says: its final record, and `run-ended`.
 * @param emit the step's recorder
 */
export async function recordRunEnded(
  kit: HistoryKit,
  state: JobRunState,
  end: JobRunEnd,
  emit: (event: ProgressEvent) => void,
): Promise<void> {
  const facts = jobRunFacts(state, kit.history?.engine ?? 'terminal', end.endedAt);
  const record = recordOfRun(facts, end);
  emit({
    type: 'run-ended',
    time: end.endedAt,
    runId: record.runId,
    jobId: record.jobId,
    namespace: record.namespace,
    outcome: end.outcome,
    counts: record.counts,
    durationMs: Math.max(0, end.endedAt - record.startedAt),
    ...(record.fleetRunId === undefined ? {} : { fleetRunId: record.fleetRunId }),
  });
  if (!restartsNothing(state.plan)) await put(kit.history, record);
}

/**
 * Ends run `runId`'s provisional record in each of `places` as `end` says (its execution died
 * outside a Catch: nothing else will end it). A failure is warned of, never thrown.
 */
export async function endUnfinishedRecords(
  history: HistoryDeps | undefined,
  places: readonly HistoryPlace[],
  runId: string,
  end: UnfinishedEnd,
): Promise<void> {
  if (history === undefined) return;
  for (const place of places) {
    try {
      await history.store.endUnfinished(place, runId, end);
    } catch (err) {
      history.warn(`Restart history not ended for run "${runId}"`, err);
    }
  }
}
