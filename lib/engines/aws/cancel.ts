/**
 * A confirmed interrupt (spec §2.9) on AWS. The workflow honours a cancel flag on the job's
 * lock item at its safe points (before each batch, after each batch) and then fails as
 * `Canceled`: that is what this asks for, when the lock table is known and the run holds the
 * lock. Otherwise it stops the execution with `StopExecution`: immediate, not at a safe point
 * (a batch in flight is cut short; the stack's stale-lock rule frees the lock). Before the lock
 * is taken nothing has been written to Nomad, so stopping then loses nothing.
 */

import { goQuote } from '../../restart/go-quote';
import type { JobLock, LockKey } from '../../stores/job-lock';
import { type AwsRetryOptions, awsCall } from './aws-call';
import { AwsCallError } from './errors';
import type { SfnCalls } from './sfn-calls';

/**
 * Cause given to `StopExecution`: the words Nomad prints for a confirmed interrupt. Equal to the
 * workflow's `CANCELED_CAUSE` (not imported: that module loads aws-cdk-lib, too slow for a CLI).
 */
export const STOP_CAUSE = 'Canceling job restart process';
/** Error given to `StopExecution`: the name of the workflow's own `Canceled` Fail state. */
export const STOP_ERROR = 'Canceled';

/** How the cancel was requested. */
export type CancelRequest =
  /** The lock's cancel flag is set: the workflow fails as `Canceled` at its next safe point. */
  | 'flagged'
  /** The lock was gone (the run is finishing): nothing left to cancel. */
  | 'finishing'
  /** The execution was stopped (`ABORTED`). */
  | 'stopped';

export interface CancelDeps {
  readonly calls: SfnCalls;
  /** The lock table, when known. */
  readonly lock: JobLock | undefined;
  readonly retry?: AwsRetryOptions;
}

/**
 * Requests the cancel of the run `runId` (its first execution's ARN, which holds the lock)
 * whose current execution is `executionArn`.
 */
export async function requestCancel(
  deps: CancelDeps,
  run: { readonly runId: string; readonly executionArn: string },
  lockedJob: LockKey | undefined,
): Promise<CancelRequest> {
  const { executionArn } = run;
  const { lock } = deps;
  if (lock !== undefined && lockedJob !== undefined) {
    try {
      const flagged = await awsCall(
        'UpdateItem',
        `requesting a cancel on the lock of job ${goQuote(lockedJob.jobId)}`,
        () => lock.requestCancel(lockedJob, run.runId),
        deps.retry,
      );
      return flagged ? 'flagged' : 'finishing';
    } catch (error) {
      // No write access to the lock table: stopping still honours the interrupt.
      if (!(error instanceof AwsCallError)) throw error;
    }
  }
  await deps.calls.stopExecution(executionArn, STOP_ERROR, STOP_CAUSE);
  return 'stopped';
}
