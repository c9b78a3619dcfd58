/**
 * Renewing the run's job locks between its safe points: after every await slice and at "Decide",
 * the last step before a batch wait or a question, both leases are extended (the engine's names
 * the execution running the run). Between two such steps the run waits at most one batch wait or
 * one question, which the workflow keeps under the shared lock's TTL (`AWS_LONGEST_WAIT_SECONDS`
 * in lib/stores/shared-lock-settings.ts), so a live run's lease never lapses.
 */
import { JobLockLostError } from '../../stores/errors';
import type { PlannedStepInput } from '../../workflow/restart-steps';
import { type JobLocks, leaseOf, lockKeyOf } from './job-locks';

/** How a renewal between safe points went: a lost lock is left to the next safe point. */
export type LeaseKept =
  | { readonly renewed: true }
  | { readonly renewed: false; readonly lost: boolean; readonly reason: string };

/**
 * Extends both leases of the run's lock.
 * @throws JobLockLostError when the run holds the job no more: no restart may follow.
 */
export function refreshLockStep(
  { lock, leaseSeconds }: JobLocks,
  { run, plan }: PlannedStepInput,
): Promise<void> {
  return lock.refresh(lockKeyOf(plan), leaseOf(run, leaseSeconds));
}

/**
 * {@link refreshLockStep}, answering instead of throwing: a lock found lost is left to the next
 * safe point, which stops the run there; a renewal that fails now (Nomad unreachable for a moment)
 * is tried again at the next step.
 */
export async function keepLeaseStep(locks: JobLocks, input: PlannedStepInput): Promise<LeaseKept> {
  try {
    await refreshLockStep(locks, input);
    return { renewed: true };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { renewed: false, lost: err instanceof JobLockLostError, reason };
  }
}

/** How much longer than its question a run's lease lasts: the answer's arrival and the next step. */
const QUESTION_LEASE_MARGIN_SECONDS = 3600;

/**
 * The lease a run takes on its own lock as it parks a question ("Ask question", the last step
 * before the wait for an answer): it must outlast the question's timeout, which may exceed the
 * usual lease; the shared lock was renewed by "Decide" just before.
 */
export function questionLeaseSeconds(leaseSeconds: number, timeoutSeconds: number | undefined): number {
  return Math.max(leaseSeconds, (timeoutSeconds ?? 0) + QUESTION_LEASE_MARGIN_SECONDS);
}
