/**
 * What happened to each allocation of a batch, and the error list and counts made from it.
 */
import { AllocationRestartError, type BatchError } from '../../restart/allocation-errors';

/** Fields every allocation outcome carries. */
interface OutcomeBase {
  /** Full ID of the planned (original) allocation. */
  readonly allocationId: string;
  readonly group: string;
}

/**
 * What happened to one planned allocation. JSON-serialisable: it travels in the batch
 * journal and between the workflow's steps.
 *
 * - `restarted`: in-place restart done (the restart call returned).
 * - `stopped`: `-reschedule` stop accepted at `stopIndex`; the replacement is still awaited.
 * - `replaced`: a replacement reachable through `NextAllocation` was seen `running`.
 * - `failed`: one error per failed allocation, or one per failed task in `-task` mode.
 */
export type AllocationOutcome =
  | (OutcomeBase & { readonly status: 'restarted' })
  | (OutcomeBase & { readonly status: 'stopped'; readonly stopIndex: number })
  | (OutcomeBase & { readonly status: 'replaced'; readonly replacementId: string })
  | (OutcomeBase & { readonly status: 'failed'; readonly errors: BatchError[] });

/** Options for wrapping an error under its allocation. */
export interface WrapOptions {
  /**
   * Full IDs in messages with `-verbose`, 8 characters otherwise (Nomad's `limit(id, c.length)` in
   * `command/job_restart.go`).
   */
  readonly verbose: boolean;
  /**
   * Placement failures are unrecoverable (Nomad's `command/job_restart.go` `isErrorRecoverable`);
   * everything else is decided by text.
   */
  readonly unrecoverable?: boolean;
}

/** `Error restarting allocation "<id>": <inner>` as a serialisable batch error. */
export function allocationError(allocationId: string, inner: unknown, options: WrapOptions): BatchError {
  const wrapped = new AllocationRestartError({ allocationId, cause: inner, verbose: options.verbose });
  return { message: wrapped.message, unrecoverable: options.unrecoverable ?? false, allocationId };
}

/** A `failed` outcome with one wrapped error. */
export function failedOutcome(
  allocation: { readonly id: string; readonly group: string },
  inner: unknown,
  options: WrapOptions,
): AllocationOutcome {
  return {
    allocationId: allocation.id,
    group: allocation.group,
    status: 'failed',
    errors: [allocationError(allocation.id, inner, options)],
  };
}

/**
 * Every error of a batch's outcomes, flat, in outcome order (Nomad's `command/job_restart.go`
 * `errorFormat`).
 */
export function batchErrorsOf(outcomes: readonly AllocationOutcome[]): BatchError[] {
  return outcomes.flatMap((outcome) => (outcome.status === 'failed' ? outcome.errors : []));
}

/** How many allocations of a batch failed (for `-max-errors`, which counts allocations, not tasks). */
export function failedCountOf(outcomes: readonly AllocationOutcome[]): number {
  return outcomes.filter((outcome) => outcome.status === 'failed').length;
}
