/**
 * The await step's cursor: which allocations still wait for a replacement, carried between Lambda slices.
 */
import { planKeys } from '../../stores/plan-keys';
import type { PlanStore } from '../../stores/plan-store';
import type { AllocationOutcome } from '../kit/outcomes';

/** Nomad prints `Still waiting for allocation ... to be replaced` this often per waiting allocation. */
export const STILL_WAITING_INTERVAL_MS = 60_000;

/** One stopped allocation whose replacement is not yet seen running. */
export interface WaitingAllocation {
  /** The original (planned) allocation. */
  readonly allocationId: string;
  readonly group: string;
  /** Index of the stop write; only blocked evaluations created at or after it count. */
  readonly stopIndex: number;
  /** The allocation of the `NextAllocation` chain watched now (the original at first). */
  readonly current: string;
  /** Client status last reported for `current` (so each status is reported once). */
  readonly lastStatus?: string;
  /** `current` is stopped on the server with no replacement: a placement failure is possible. */
  readonly stuck: boolean;
  /** Unix ms of the next `still-waiting` event. */
  readonly nextStillWaitingAt: number;
}

/**
 * Where the watch of a batch stands, so a Lambda that must return before its timeout can
 * hand it to the next invocation: blocking-query indexes, each waiting allocation's place
 * in its replacement chain, and the outcomes settled so far. JSON-serialisable; its size
 * grows with the batch, not the job.
 */
export interface AwaitCursor {
  readonly batchIndex: number;
  /** Unix ms when the watch started (the 60 s ticker and `-replacement-timeout` count from here). */
  readonly startedAt: number;
  /** `X-Nomad-Index` of the last job allocations answer (0: not read yet). */
  readonly allocationsIndex: number;
  /** `X-Nomad-Index` of the last job evaluations answer (0: not read yet). */
  readonly evaluationsIndex: number;
  readonly waiting: readonly WaitingAllocation[];
  /** Outcomes settled so far (restarted, replaced, failed), by original allocation ID. */
  readonly settled: Readonly<Record<string, AllocationOutcome>>;
}

/** Options of {@link createAwaitCursor}. */
export interface CreateAwaitCursorOptions {
  /** Unix ms. */
  readonly now: () => number;
  /** @default STILL_WAITING_INTERVAL_MS */
  readonly stillWaitingIntervalMs?: number;
}

/** The cursor that starts watching a batch, from the outcomes of its restart step. */
export function createAwaitCursor(
  batchIndex: number,
  outcomes: readonly AllocationOutcome[],
  options: CreateAwaitCursorOptions,
): AwaitCursor {
  const startedAt = options.now();
  const interval = options.stillWaitingIntervalMs ?? STILL_WAITING_INTERVAL_MS;
  const waiting: WaitingAllocation[] = [];
  const settled: Record<string, AllocationOutcome> = {};
  for (const outcome of outcomes) {
    if (outcome.status === 'stopped') {
      waiting.push({
        allocationId: outcome.allocationId,
        group: outcome.group,
        stopIndex: outcome.stopIndex,
        current: outcome.allocationId,
        stuck: false,
        nextStillWaitingAt: startedAt + interval,
      });
    } else {
      settled[outcome.allocationId] = outcome;
    }
  }
  return { batchIndex, startedAt, allocationsIndex: 0, evaluationsIndex: 0, waiting, settled };
}

/** The await cursor of batch `index` of run `runId`, as the last slice (or the batch's start) left it. */
export async function readAwaitCursor(store: PlanStore, runId: string, index: number): Promise<AwaitCursor> {
  return (await store.get(planKeys.awaitCursor(runId, index))) as AwaitCursor;
}

/** Keeps the await cursor of batch `index` for the next slice (its size grows with the batch). */
export function writeAwaitCursor(
  store: PlanStore,
  runId: string,
  index: number,
  cursor: AwaitCursor,
): Promise<void> {
  return store.put(planKeys.awaitCursor(runId, index), cursor);
}
