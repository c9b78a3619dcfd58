/**
 * Why Nomad placed a replacement, in its own vocabulary (`scheduler/reconciler/filters.go` and the
 * scheduler's docs): a **migration** moves an allocation that was asked to move (what
 * `-reschedule`'s stop does: it sets `DesiredTransition.Migrate`, as a node drain does); a
 * **replacement** stands in for an allocation whose node was lost or disconnected (`lost`, or
 * `unknown` with `disconnect.replace = true`), which no restart asked for; a **reschedule** follows
 * an allocation that failed.
 */
import type { AllocListStub } from '../nomad/types';

export type ReplacementCause = 'migration' | 'replacement' | 'reschedule';

/** Why `replaced`, an allocation Nomad has linked to a `NextAllocation`, was replaced. */
export function replacementCause(replaced: AllocListStub): ReplacementCause {
  // A node lost or disconnected first: a stop sent to an allocation already `unknown` asks for a
  // migration the scheduler cannot start, and the replacement comes from the disconnect.
  if (replaced.ClientStatus === 'lost' || replaced.ClientStatus === 'unknown') return 'replacement';
  if (replaced.ClientStatus === 'failed' || replaced.DesiredTransition?.Reschedule === true)
    return 'reschedule';
  return 'migration';
}
