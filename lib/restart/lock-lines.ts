/**
 * The lines beyond Nomad about who holds a job (printed as warnings by the one formatter,
 * format.ts): a lock taken over from a run that ended without releasing it, an earlier run of the
 * job resumed, a run going on without the job's lock shared with other operators, and a run that
 * lost the job's lock and stops.
 */

import { goQuote } from '../go/quote';
import type { ProgressEvent } from './events';
import { plural } from './text';

/** The events these lines are for. */
export type LockEvent = Extract<
  ProgressEvent,
  { type: 'lock-taken-over' | 'earlier-run-resumed' | 'shared-lock-skipped' | 'lock-lost' }
>;

/** The text of a lock event's line (the formatter adds the `==> <ts>: ` prefix). */
export function lockEventText(event: LockEvent): string {
  switch (event.type) {
    case 'lock-taken-over':
      return `Took over the lock of job ${goQuote(event.jobId)} from run "${event.previousRun}", which is no longer running (${event.previousStatus})`;
    case 'earlier-run-resumed':
      return `Resuming run "${event.previousRun}", which did not finish: skipping ${plural(event.skipped, 'allocation', 'allocations')} it already restarted or replaced`;
    case 'shared-lock-skipped':
      return `Restarting job ${goQuote(event.jobId)} without the lock shared with other operators. ${event.reason}`;
    case 'lock-lost':
      return lockLostText(event.reason, event.left);
  }
}

/** Why a run stopped after losing the job's lock, as its line and its error in the final list say it. */
export function lockLostText(reason: string, left: number): string {
  return `${reason}. Stopping job restart before restarting anything more: ${plural(left, 'allocation', 'allocations')} not restarted`;
}
