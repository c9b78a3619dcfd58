/**
 * Run-level events (issue #40): what a run as a whole did, beside the progress events that say
 * what happened to each allocation (events.ts).
 */
import type { RunOutcome } from './outcome';

/** What a run did, in allocations: its record's counts (lib/history) and its `run-ended` event's. */
export interface RunCounts {
  /** Planned to restart. */
  readonly planned: number;
  /** Restarted (or rescheduled) without error. */
  readonly restarted: number;
  readonly failed: number;
  /** Left out of the plan (not running, already replaced, out of scope, already fresh...). */
  readonly skipped: number;
  /** Planned but never reached: the run stopped first (window end, a stop, an alarm, an error). */
  readonly notReached: number;
}

/**
 * Run-level events (issue #40): silent in text (Nomad's lines stay Nomad's), streamed by
 * `-output json`, and what the run's metrics (lib/metrics) and its history record are made from.
 */
export type RunLevelEvent =
  /** The run holds the job and has its plan: what it will do, and who started it why. */
  | {
      type: 'run-started';
      time: number;
      runId: string;
      jobId: string;
      namespace: string;
      planned: number;
      batches: number;
      startedBy: string;
      reason?: string;
      fleetRunId?: string;
    }
  /**
   * A batch is done: its allocations restarted or failed (and, with `-wait-healthy`, healthy or
   * not in time). `durationMs`: from its restart calls to this; `healthWaitMs`: of that, the
   * health wait, when there was one.
   */
  | {
      type: 'batch-finished';
      time: number;
      batchNumber: number;
      batches: number;
      restarted: number;
      failed: number;
      durationMs: number;
      healthWaitMs?: number;
    }
  /** A question was answered (or timed out): how long the run waited on it. */
  | {
      type: 'question-waited';
      time: number;
      kind: 'multiregion' | 'proceed' | 'pause';
      waitedMs: number;
      answer: 'yes' | 'no' | 'timeout';
    }
  /** How the run ended, with what it did, and how long it took from its first execution's start. */
  | {
      type: 'run-ended';
      time: number;
      runId: string;
      jobId: string;
      namespace: string;
      outcome: RunOutcome;
      counts: RunCounts;
      durationMs: number;
      fleetRunId?: string;
    };
