/**
 * When the safe point before a batch reads the run's run-control request (docs/run-control.md):
 * at most once per {@link CONTROL_READ_INTERVAL_MS}, not at every safe point. In Nomad the read is
 * a `GET` of the job's request variable; a run firing batches back to back (no `-wait`, no health
 * gate) would otherwise poll it several times a second, and a batch-size-1 run would pay it once
 * per allocation. The time of the last read travels in the run's state (`RunRef.controlReadAt`,
 * run-times.ts), as the lease's does (lease-renewal.ts).
 *
 * The interval counts from the take of the job's lock: a request names a run holding its job's
 * lock (lib/control/requests.ts), so none can wait for a run that does not hold it yet; a fleet's
 * job reads at its first safe point, as its fleet's request may be older (take-lock-step.ts). The
 * interval holds for the engine's own lock too (the lock table on AWS: one read less per batch).
 * A cancel (Ctrl-C) is still read at every safe point (guard-step.ts). The guarantee: a request is acted on at the first safe point at least 1 s after the previous read,
 * so no batch starts more than 1 s (plus the batch in flight) after a stop was recorded.
 */
import type { RunRef } from '../../workflow/payloads';
import { doneAt, dueNext, msSince } from './run-times';

/** The least time between two reads of the run's request, in ms. */
export const CONTROL_READ_INTERVAL_MS = 1000;

/** Whether the safe point at `now` reads `run`'s request: never read (or due again), or the interval passed. */
export function controlReadDue(run: RunRef, now: number): boolean {
  const sinceMs = msSince(run, 'controlReadAt', now);
  return sinceMs === undefined || sinceMs >= CONTROL_READ_INTERVAL_MS;
}

/** `run` having read its request (or taken its lock) at `now`. */
export const controlReadAt = (run: RunRef, now: number): RunRef => doneAt(run, 'controlReadAt', now);

/**
 * `run` with its next safe point reading the request, whenever it comes: a run back from a pause
 * re-checks at once (a `stop` given as the answer's follow-up, the parked marker to delete).
 */
export const controlReadNext = (run: RunRef): RunRef => dueNext(run, 'controlReadAt');
