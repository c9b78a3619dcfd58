/**
 * The job lock's steps: one restart per job (across laptops and AWS), taken after Plan, renewed
 * at every safe point, released on every way out. Each step is one file of this folder, run on
 * the step kit built from the invocation's deps (its clock, plan store and live events), beside
 * the lock the invocation holds. The handlers get them from {@link createLockSteps}.
 */

import type { UnfinishedEnd } from '../../history/run-history';
import type { ProgressEvent } from '../../restart/events';
import type { LockKey } from '../../stores/job-lock';
import type { TaskFailure } from '../../workflow/payloads';
import type { PlannedStepInput } from '../../workflow/restart-steps';
import type { JobRunState } from '../kit/job-history';
import { createStepKit, type StepKitDeps } from '../kit/step-kit';
import { endAfterErrorStep } from './end-after-error-step';
import { type GuardPass, type GuardStop, guardStep } from './guard-step';
import { type JobLocks, lockKeyOf } from './job-locks';
import { keepLeaseStep, type LeaseKept } from './refresh-lock-step';
import { releaseLockStep, releaseStaleLockStep } from './release-lock-step';
import { type TakeLockOutput, takeLockStep } from './take-lock-step';

/** What the lock steps need: a step's deps, and the job's locks. */
export interface LockStepsDeps extends StepKitDeps, JobLocks {}

/** One method per lock step. */
export interface LockSteps {
  /**
   * "Lock job": takes the job's locks for the run. A run that finds another holding the job fails
   * with `JobLockedError` naming the holder (a scheduled run is skipped instead, with its own
   * summary), unless the holder no longer runs: then this run takes the lock over and says so
   * (`lock-taken-over`). The lease never decides on its own. Names the run in the job's record
   * (a later run resumes one that never ended).
   */
  take(input: PlannedStepInput): Promise<TakeLockOutput>;
  /**
   * The safe point before a batch, before the deployment guard (Nomad's `command/job_restart.go`
   * `handleSignal` and the batch loop): a pending cancel wins (no Nomad call), then a run-control
   * request (read at most once a second: control-read.ts), then the maintenance window's end (the
   * run stops there, `window-ended`), then the lease is renewed when less than half is left
   * (lease-renewal.ts): a run that lost the job stops, failed, restarting nothing more
   * (`lock-lost`). The run going on comes back with the times of its read and its renewal.
   */
  guard(input: PlannedStepInput): Promise<GuardStop | GuardPass>;
  /**
   * After each await slice and at "Decide" (the last step before a batch wait or a question):
   * renews the run's leases when less is left than the longest wait (lease-renewal.ts). A lost
   * lock or a failed renewal is answered, not thrown, with the renewal due: the next safe point
   * renews and stops a run that lost the job.
   */
  keepLease(input: PlannedStepInput): Promise<LeaseKept>;
  /** Whether a cancel was requested for the run (read at "Decide"). */
  cancelRequested(input: PlannedStepInput): Promise<boolean>;
  /**
   * "Release lock": frees the run's locks if it holds them (`false` when it did not: a `JobLocked`
   * failure never frees the other run's lock) and marks the run ended, in the job's record (it is
   * never resumed) and in the plan store (its documents may expire now).
   */
  release(runId: string | undefined, key: LockKey | undefined): Promise<boolean>;
  /**
   * After "Release lock after error" freed the job of a run that held it: ends the run's record
   * with its failure (`Canceled` → canceled, `UnrecoverableError` → unrecoverable, else error) and
   * answers the events (`run-ended`).
   */
  endAfterError(state: JobRunState, error: Partial<TaskFailure>): Promise<ProgressEvent[]>;
  /**
   * After an execution died outside a Catch: frees every lock its run holds and ends its
   * provisional records as `end` says (aborted, timed out, error); answers how many jobs.
   */
  releaseStale(runId: string, end: UnfinishedEnd): Promise<number>;
}

/** Builds the lock steps for one invocation (deps carry that invocation's clock and deadline). */
export function createLockSteps(deps: LockStepsDeps): LockSteps {
  const { lock, runs, leaseSeconds, ...stepDeps } = deps;
  const kit = createStepKit(stepDeps);
  const locks = { lock, runs, leaseSeconds };
  return {
    take: (input) => takeLockStep(kit, locks, input),
    guard: (input) => guardStep(kit, locks, input),
    keepLease: (input) => keepLeaseStep(kit.now, locks, input),
    cancelRequested: ({ run, plan }) => lock.isCancelRequested(lockKeyOf(plan), run.runId),
    release: (runId, key) => releaseLockStep(kit, lock, runId, key),
    endAfterError: (state, error) => endAfterErrorStep(kit, state, error),
    releaseStale: (runId, end) => releaseStaleLockStep(kit, lock, runId, end),
  };
}
