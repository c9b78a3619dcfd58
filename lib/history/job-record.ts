/**
 * One job's run as its record in the job's restart history (record.ts): built from what the
 * workflow state knows at "Lock job" (the provisional record) and at the run's end ("Finish
 * restart", "Release lock after error"). Pure: the steps (lib/steps/history) write what this
 * builds.
 */
import type { RestartOptions } from '../restart/options';
import { optionsInShort } from '../restart/run/options-short';
import type { RunOutcome } from '../restart/run/outcome';
import type { RunCounts } from '../restart/run/run-events';
import { runStarter } from '../restart/run/starter';
import type { SkippedCounts } from '../restart/run-summary';
import {
  MAX_RECORD_ERROR_LENGTH,
  MAX_RECORD_ERRORS,
  RECORD_VERSION,
  type RunEngine,
  type RunRecord,
} from './record';
import { boundRecordErrors } from './record-errors';

/** What a job's run is, from its workflow state. */
export interface JobRunFacts {
  readonly options: RestartOptions;
  /** The run's ID: its first execution's ARN (or local ID). */
  readonly runId: string;
  /** The run's current execution: its ARN is kept on AWS. */
  readonly executionId: string;
  /** The execution input's `startedBy`, when it had one. */
  readonly startedBy: string | undefined;
  /** Unix ms the run's first execution started. */
  readonly startedAt: number;
  readonly engine: RunEngine;
  readonly jobId: string;
  readonly namespace: string;
  readonly counts: RunCounts;
}

/** How a run ended, for its final record. */
export interface JobRunEnd {
  readonly outcome: RunOutcome;
  readonly endedAt: number;
  /** Every error of the run, first first (the record keeps the first few). */
  readonly errors: readonly string[];
  /** Errors already left out before `errors` (a sample's `omitted`). @default 0 */
  readonly omittedErrors?: number;
  /** Who stopped the run, when someone did. */
  readonly stoppedBy?: string | undefined;
}

/**
 * The counts of a run: `planned` allocations, of which `restarted` and `failed` so far, and
 * `skipped` left out of the plan (by reason). What was planned and neither restarted nor failed
 * was not reached (the run stopped first, or is still running).
 */
export function runCounts(
  planned: number,
  restarted: number,
  failed: number,
  skipped: SkippedCounts,
): RunCounts {
  const skippedTotal = Object.values(skipped).reduce<number>((sum, n) => sum + (n ?? 0), 0);
  return {
    planned,
    restarted,
    failed,
    skipped: skippedTotal,
    notReached: Math.max(0, planned - restarted - failed),
  };
}

/**
 * Run `facts`' record: provisional (`running`, no `endedAt`) without `end`, final with it. Only
 * the first {@link MAX_RECORD_ERRORS} errors are kept, each cut to {@link MAX_RECORD_ERROR_LENGTH}
 * characters; the rest are counted in `omittedErrors`.
 */
export function recordOfRun(facts: JobRunFacts, end?: JobRunEnd): RunRecord {
  const { options } = facts;
  const errors = end?.errors ?? [];
  return {
    version: RECORD_VERSION,
    runId: facts.runId,
    kind: 'job',
    namespace: facts.namespace,
    jobId: facts.jobId,
    engine: facts.engine,
    startedBy: runStarter(options, facts.startedBy),
    ...(options.reason === undefined ? {} : { reason: options.reason }),
    ...(options.fleet === undefined ? {} : { fleetRunId: options.fleet.runId }),
    options: optionsInShort(options),
    outcome: end?.outcome ?? 'running',
    counts: facts.counts,
    startedAt: facts.startedAt,
    ...(end === undefined ? {} : { endedAt: end.endedAt }),
    ...(options.windowEnd === undefined ? {} : { windowEnd: options.windowEnd }),
    ...(end?.stoppedBy === undefined ? {} : { stoppedBy: end.stoppedBy }),
    ...boundRecordErrors(errors, end?.omittedErrors ?? 0),
    // A terminal run's execution is this process's own: only an AWS execution can be opened later.
    ...(facts.engine === 'aws' ? { executionArn: facts.executionId } : {}),
  };
}
