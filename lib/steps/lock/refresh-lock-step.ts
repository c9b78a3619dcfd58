/**
 * Renewing the run's job locks between its safe points: after every await slice and at "Decide",
 * the last step before a batch wait or a question, both leases are extended (the engine's names
 * the execution running the run) when they need it (lease-renewal.ts: less left than the longest
 * wait, which the workflow keeps under the shared lock's TTL, `AWS_LONGEST_WAIT_SECONDS` in
 * lib/stores/shared-lock-settings.ts), so a live run's lease never lapses.
 */
import { JobLockLostError } from '../../stores/errors';
import type { RunRef } from '../../workflow/payloads';
import type { PlannedStepInput } from '../../workflow/restart-steps';
import { type JobLocks, leaseOf, lockKeyOf } from './job-locks';
import { type ComingWait, leaseNeedsRenewal, renewalDue, renewedAt } from './lease-renewal';

/** How a renewal between safe points went, and the run as its state carries it from here. */
export type LeaseKept =
  | { readonly renewed: true; readonly run: RunRef }
  | { readonly renewed: false; readonly lost: boolean; readonly reason: string; readonly run: RunRef };

/**
 * Extends both leases of the run's lock when they need it before `wait`; answers the run with
 * the renewal's time (unchanged when none was needed).
 * @throws JobLockLostError when the run holds the job no more: no restart may follow.
 */
export async function refreshLockStep(
  now: () => number,
  { lock, leaseSeconds }: JobLocks,
  { run, plan }: PlannedStepInput,
  wait: ComingWait,
): Promise<RunRef> {
  const at = now();
  if (!leaseNeedsRenewal(run, leaseSeconds, at, wait)) return run;
  await lock.refresh(lockKeyOf(plan), leaseOf(run, leaseSeconds));
  return renewedAt(run, at);
}

/**
 * {@link refreshLockStep} before the longest wait, answering instead of throwing: a lock found
 * lost is left to the next safe point, which renews again (the run comes back with its renewal
 * due) and stops the run there; a renewal that fails now (Nomad unreachable for a moment) is
 * tried again at the next step.
 */
export async function keepLeaseStep(
  now: () => number,
  locks: JobLocks,
  input: PlannedStepInput,
): Promise<LeaseKept> {
  try {
    return { renewed: true, run: await refreshLockStep(now, locks, input, 'longest') };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { renewed: false, lost: err instanceof JobLockLostError, reason, run: renewalDue(input.run) };
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
