/**
 * When a run renews its job's locks: only when the lease needs it, not at every safe point. When
 * the locks were last renewed travels in the run's state (`RunRef.leaseRenewedAt`, run-times.ts),
 * set by "Lock job" and by every renewal.
 *
 * Why a live run's lease never lapses: every renewal asks for the whole lease again (the engine's
 * lease, `LOCK_TTL_SECONDS`; Nomad's TTL is at least as long on AWS, and a terminal's process
 * renews Nomad's itself: lib/engines/local/shared-lock-keeper.ts). A safe point renews once less
 * than half of the lease is left, and the steps after a batch wait or a question ("Decide", each
 * await slice) renew once less is left than the longest one wait may last
 * (`AWS_LONGEST_WAIT_SECONDS`, the bound the workflow keeps every wait under). Between two safe
 * points a run either works (a few Lambda timeouts at most, far under half a lease) or waits once
 * (under that bound), so the lease always outlasts the gap.
 */
import { AWS_LONGEST_WAIT_SECONDS } from '../../stores/shared-lock-settings';
import type { RunRef } from '../../workflow/payloads';
import { doneAt, dueNext, msSince } from './run-times';

/** How long the wait after a step may be: none (the safe point before a batch), or the longest one. */
export type ComingWait = 'none' | 'longest';

/**
 * Whether `run`'s locks must be renewed at `now` for a lease of `leaseSeconds`: never renewed (or
 * the last renewal failed), less than half the lease left, or, before a wait, less left than the
 * longest wait may last.
 */
export function leaseNeedsRenewal(run: RunRef, leaseSeconds: number, now: number, wait: ComingWait): boolean {
  const sinceMs = msSince(run, 'leaseRenewedAt', now);
  if (sinceMs === undefined) return true;
  const leftMs = leaseSeconds * 1000 - sinceMs;
  if (leftMs < (leaseSeconds * 1000) / 2) return true;
  return wait === 'longest' && leftMs < AWS_LONGEST_WAIT_SECONDS * 1000;
}

/** `run` renewed at `now`. */
export const renewedAt = (run: RunRef, now: number): RunRef => doneAt(run, 'leaseRenewedAt', now);

/** `run` after a renewal that failed: the next safe point renews, whatever is left. */
export const renewalDue = (run: RunRef): RunRef => dueNext(run, 'leaseRenewedAt');
