/**
 * A run's record in the job's restart history (issue #40): who started it, why, what it was asked
 * to do, how it ended and what it did. Every engine writes the same record (a terminal run, an AWS
 * execution, a schedule's, a fleet's), as JSON in one item of the job's history variable in Nomad
 * (lib/stores/nomad-run-history.ts), so `nomad-restart history` answers "who restarted payments
 * last night, why, and did it finish?" with nothing but a Nomad token.
 *
 * A run writes its record twice: provisionally (`outcome: 'running'`, no `endedAt`) when it takes
 * the job, and finally when it ends. A run that died in between (a terminal killed with SIGKILL)
 * leaves the provisional one, which readers show as `started, never finished`.
 */
import type { RunCounts } from '../restart/run/run-events';
import type { RunOutcome } from '../restart/run-summary';

/** The record's shape version, written with it so a later reader can tell an older record. */
export const RECORD_VERSION = 1;

/** The longest `-reason` accepted, in characters (checked with the options, in lib/restart). */
export { MAX_REASON_LENGTH } from '../restart/run/reason';

/** The run's first errors kept in its record; the rest are counted in `omittedErrors`. */
export const MAX_RECORD_ERRORS = 3;

/** An error kept in a record is cut to this many characters (`…` marks the cut). */
export const MAX_RECORD_ERROR_LENGTH = 300;

/**
 * Nomad's limit on one variable: the sum of its items' key and value lengths in bytes
 * (`maxVariableSize` and `VariableItems.Size` in `nomad/structs/variables.go`; a larger write is
 * refused with 400 `variables are limited to 64KiB in total size`).
 */
export const MAX_VARIABLE_SIZE = 65536;

/** How a recorded run stands: a provisional record says `running`; an ended run, how it ended. */
export type RecordOutcome = RunOutcome | 'running';

/** Which engine ran the steps: this process at a terminal, or Step Functions. */
export type RunEngine = 'terminal' | 'aws';

/** What the run did, in allocations (a fleet's record: in jobs). */
export type RecordCounts = RunCounts;

/** One run of one job, or one fleet run, as its history keeps it. Times are Unix ms. */
export interface RunRecord {
  readonly version: typeof RECORD_VERSION;
  /** The run's ID: the first execution's ARN on AWS, the local run's ID at a terminal. */
  readonly runId: string;
  /** `job`: one job's run (a fleet's job too, linked by `fleetRunId`); `fleet`: the fleet run itself. */
  readonly kind: 'job' | 'fleet';
  readonly namespace: string;
  /** The job's full ID; `''` for a fleet's record. */
  readonly jobId: string;
  readonly engine: RunEngine;
  /**
   * Who or what started it: `user@host` at a terminal, the schedule, the console (an input
   * without `startedBy`), or `fleet <runId>` for a fleet's job. Never a secret.
   */
  readonly startedBy: string;
  /** `-reason`, when given. */
  readonly reason?: string;
  /** The fleet run this job's run was part of. */
  readonly fleetRunId?: string;
  /** The options that matter, in short (`-batch-size=2 -wait-healthy -reschedule`; a fleet: its selection). */
  readonly options: string;
  readonly outcome: RecordOutcome;
  readonly counts: RecordCounts;
  readonly startedAt: number;
  /** Absent while provisional. */
  readonly endedAt?: number;
  /** The maintenance window's end, when the run had one. */
  readonly windowEnd?: number;
  /** Who stopped it (a `stop`, a "no" to its pause question), when someone did. */
  readonly stoppedBy?: string;
  /** The first {@link MAX_RECORD_ERRORS} errors, each at most {@link MAX_RECORD_ERROR_LENGTH} characters. */
  readonly errors: readonly string[];
  /** Errors left out of `errors`. */
  readonly omittedErrors: number;
  /** The execution's ARN, on AWS (the run's current execution when it ended). */
  readonly executionArn?: string;
  /** A fleet's record: its jobs by outcome (`{"succeeded": 12, "failed": 1}`). */
  readonly jobOutcomes?: Readonly<Partial<Record<RunOutcome, number>>>;
}
