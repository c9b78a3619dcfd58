/**
 * The times a run keeps in its state so that a safe point can tell whether an action is due: the
 * last renewal of its locks (lease-renewal.ts) and its last run-control read (control-read.ts).
 * Steps run in separate Lambda functions on AWS, so such a time travels in the run's state
 * (`RunRef`): set when the action is done, removed when the next safe point must act whatever the
 * time, and read as the time since. What is "due" is each action's own rule.
 */
import type { RunRef } from '../../workflow/payloads';

/** A field of `RunRef` holding when an action was last done (Unix ms); absent: due at the next safe point. */
export type RunTime = 'leaseRenewedAt' | 'controlReadAt';

/** `run` having done `time`'s action at `now`. */
export const doneAt = (run: RunRef, time: RunTime, now: number): RunRef => ({ ...run, [time]: now });

/** `run` with `time`'s action due at its next safe point, whenever that comes. */
export function dueNext(run: RunRef, time: RunTime): RunRef {
  const { [time]: _last, ...rest } = run;
  return rest;
}

/** Ms from `run`'s last `time` to `now`; `undefined` when it has none (never done, or due next). */
export function msSince(run: RunRef, time: RunTime, now: number): number | undefined {
  const last = run[time];
  return last === undefined ? undefined : now - last;
}
