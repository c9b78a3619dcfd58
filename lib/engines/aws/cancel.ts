/**
 * A confirmed interrupt (Nomad's `command/job_restart.go` `handleSignal`) on AWS. The workflow
 * honours a cancel flag on the job's lock item at its safe points (before each batch, after each
 * batch) and then fails as `Canceled`: that is what this asks for, when the lock table is known and
 * the run holds the lock. The flag belongs to the run, so a continue-as-new successor honours it
 * too. Otherwise it stops the execution with `StopExecution`: immediate, not at a safe point (a
 * batch in flight is cut short; the stack's stale-lock rule frees the lock). Before the lock is
 * taken nothing has been written to Nomad, so stopping then loses nothing.
 *
 * A stop ends one execution, not the run: the follow loop stops each successor the chain
 * hands over to as well, including one a hand-over cut short by the stop may still start
 * ({@link findLateSuccessor}).
 */

import { goQuote } from '../../go/quote';
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

/**
 * When, after a stop that cut a hand-over short, the successor it may still start is looked
 * for (ms from the stop): Step Functions makes the hand-over's one `StartExecution` within
 * moments, or not at all.
 */
export const LATE_SUCCESSOR_LOOKS_MS = [0, 1_000, 3_000, 7_000];

/** How the cancel was requested. */
export type CancelRequest =
  /** The lock's cancel flag is set: the workflow fails as `Canceled` at its next safe point. */
  | 'flagged'
  /** The lock was gone (the run is finishing): nothing left to cancel. */
  | 'finishing'
  /** The execution was stopped (`ABORTED`); its successors are to be stopped too. */
  | 'stopped';

export interface CancelDeps {
  readonly calls: SfnCalls;
  /** The lock table, when known. */
  readonly lock: JobLock | undefined;
  /** Retries of the lock table write (the engine's patient policy). */
  readonly retry?: AwsRetryOptions;
  /** Prints one line on stderr (the fallback to a stop is said). */
  readonly printError: (message: string) => void;
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
        {
          action: 'dynamodb:UpdateItem',
          what: `requesting a cancel on the lock of job ${goQuote(lockedJob.jobId)}`,
        },
        () => lock.requestCancel(lockedJob, run.runId),
        deps.retry,
      );
      return flagged ? 'flagged' : 'finishing';
    } catch (error) {
      // No write access to the lock table (or no such table): stopping still honours the interrupt.
      if (!(error instanceof AwsCallError)) throw error;
      deps.printError(`${error.message}; stopping execution ${goQuote(executionArn)} at once instead`);
    }
  }
  await stopExecution(deps.calls, executionArn);
  return 'stopped';
}

/** Stops one execution of the run, with the workflow's own `Canceled` error and Nomad's words. */
export function stopExecution(calls: SfnCalls, executionArn: string): Promise<void> {
  return calls.stopExecution(executionArn, STOP_ERROR, STOP_CAUSE);
}

/**
 * Whether `successorArn`, the execution a stopped hand-over was starting, exists: looked for at
 * each of {@link LATE_SUCCESSOR_LOOKS_MS}.
 */
export async function findLateSuccessor(
  calls: SfnCalls,
  successorArn: string,
  wait: (ms: number) => Promise<void>,
): Promise<boolean> {
  let waited = 0;
  for (const at of LATE_SUCCESSOR_LOOKS_MS) {
    await wait(at - waited);
    waited = at;
    if (await calls.executionExists(successorArn)) return true;
  }
  return false;
}
