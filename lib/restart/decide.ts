/**
 * What happens after a batch (Nomad's `command/job_restart.go` `Run`, end of a batch), as a pure
 * function the engine and the state machine's "Decide" step share.
 */
import { type BatchError, isBatchUnrecoverable } from './allocation-errors';
import { ASK, type BatchWait, FAIL, type OnError } from './options';

/**
 * How the batch went, as the proceed question words it (Nomad's `command/job_restart.go`
 * `shouldProceed`).
 */
export type BatchOutcome = 'ok' | 'recoverable' | 'unrecoverable';

export interface DecideInput {
  /** True after the last batch: nothing else is decided then (no question, no wait). */
  isLastBatch: boolean;
  /** This batch's errors (empty when it went well). */
  batchErrors: readonly BatchError[];
  onError: OnError;
  yes: boolean;
  /** Current wait; an earlier answer may have replaced `ask` with a duration. */
  batchWait: BatchWait;
  /** Beyond Nomad: absolute `-max-errors` (see `resolveMaxErrors`), if set. */
  maxErrors?: number;
  /** Allocations that failed so far in the whole run, this batch included. */
  failedAllocations: number;
}

export type BatchDecision =
  | { action: 'finish' }
  /** `error`: `-on-error=fail`; `unrecoverable-error`: `-yes` and a placement/permission failure. */
  | { action: 'stop'; reason: 'error' | 'unrecoverable-error' | 'max-errors' }
  /** Ask the proceed question; print the batch errors first when there are any. */
  | { action: 'ask'; outcome: BatchOutcome; batchWaitAsk: boolean }
  | { action: 'wait'; ns: number }
  | { action: 'next' };

/** The outcome of a batch for the proceed question. */
export function batchOutcome(errors: readonly BatchError[]): BatchOutcome {
  if (errors.length === 0) return 'ok';
  return isBatchUnrecoverable(errors) ? 'unrecoverable' : 'recoverable';
}

/** After a "yes" (or when nothing is asked): sleep if the wait is positive, else go on. */
export function waitOrNext(batchWait: BatchWait): { action: 'wait'; ns: number } | { action: 'next' } {
  // Negative and zero waits are valid and mean no sleep (Go: `if c.batchWait > 0`).
  return batchWait.kind === 'duration' && batchWait.ns > 0
    ? { action: 'wait', ns: batchWait.ns }
    : { action: 'next' };
}

/**
 * The rules, in Nomad's order: the last batch finishes; with errors, `-on-error=fail`
 * stops, and `-yes` stops on an unrecoverable error; beyond Nomad, `-yes` stops once more
 * allocations failed than `maxErrors` (without `-yes` a human is asked anyway, so the
 * limit does not take the choice away); then ask when `-yes` is off and either the wait
 * is `ask` or `-on-error` is `ask` with errors; else wait or go on.
 */
export function decideAfterBatch(input: DecideInput): BatchDecision {
  if (input.isLastBatch) return { action: 'finish' };
  const hasErrors = input.batchErrors.length > 0;
  const outcome = batchOutcome(input.batchErrors);
  if (hasErrors) {
    if (input.onError === FAIL) return { action: 'stop', reason: 'error' };
    if (input.yes && outcome === 'unrecoverable') return { action: 'stop', reason: 'unrecoverable-error' };
  }
  if (input.yes && input.maxErrors !== undefined && input.failedAllocations > input.maxErrors) {
    return { action: 'stop', reason: 'max-errors' };
  }
  const batchWaitAsk = input.batchWait.kind === ASK;
  if (!input.yes && (batchWaitAsk || (input.onError === ASK && hasErrors))) {
    return { action: 'ask', outcome, batchWaitAsk };
  }
  return waitOrNext(input.batchWait);
}
