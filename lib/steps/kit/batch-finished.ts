/**
 * The `batch-finished` run-level event (issue #40), emitted where a batch ends: "Restart batch" in
 * place, "Await batch" with `-reschedule`, or "Await health" when `-wait-healthy` gates the batch.
 */
import type { RunLevelEvent } from '../../restart/run/run-events';
import { type AllocationOutcome, failedCountOf } from './outcomes';

type BatchFinished = Extract<RunLevelEvent, { type: 'batch-finished' }>;

/** What the event is made of: the batch, the plan's batch count, and how its allocations ended. */
export interface BatchEnd {
  readonly batch: { readonly index: number; readonly startedAt: number };
  /** The plan's batch count. */
  readonly batches: number;
  readonly outcomes: readonly AllocationOutcome[];
  /** Unix ms, when the batch ended. */
  readonly now: number;
  /** With `-wait-healthy`: Unix ms when the health wait began (the health cursor's `startedAt`). */
  readonly healthStartedAt?: number;
}

/**
 * The batch's `batch-finished` event. Its counts are the ones `StepKit.settle` stores for Decide,
 * so the metrics and the run's summary agree.
 */
export function batchFinished({ batch, batches, outcomes, now, healthStartedAt }: BatchEnd): BatchFinished {
  const failed = failedCountOf(outcomes);
  return {
    type: 'batch-finished',
    time: now,
    batchNumber: batch.index + 1,
    batches,
    restarted: outcomes.length - failed,
    failed,
    durationMs: Math.max(0, now - batch.startedAt),
    ...(healthStartedAt === undefined ? {} : { healthWaitMs: Math.max(0, now - healthStartedAt) }),
  };
}
