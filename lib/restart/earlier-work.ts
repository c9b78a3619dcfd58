/**
 * What earlier runs of a restart did, as a plan skips it: the allocations an interrupted run of
 * the job restarted or stopped (lib/steps/plan/plan/earlier-run.ts finds them), or a window's carry-over
 * (lib/steps/plan/plan/carry-over.ts), each with its replacements.
 */
import type { AllocListStub } from '../nomad/types';

/**
 * What an earlier run of the job that never ended did (lib/steps/plan/plan/earlier-run.ts): a plan that
 * resumes it leaves these allocations, and the replacements of those stopped, out.
 */
export interface EarlierRunWork {
  readonly runId: string;
  /** Allocations it restarted in place. */
  readonly restarted: readonly string[];
  /** Allocations it stopped (`-reschedule`). */
  readonly stopped: readonly string[];
}

/**
 * `ids` and the replacements of each (their `NextAllocation` chains): what earlier runs did,
 * replacements included, as a plan skips it. List stubs carry no `PreviousAllocation`, so a
 * replacement whose original was garbage-collected is not known.
 */
export function withReplacements(
  ids: Iterable<string>,
  stubs: readonly AllocListStub[],
): ReadonlySet<string> {
  const done = new Set(ids);
  const next = new Map(stubs.map((stub) => [stub.ID, stub.NextAllocation]));
  for (const id of [...done]) {
    for (let replacement = next.get(id); replacement && !done.has(replacement); ) {
      done.add(replacement);
      replacement = next.get(replacement);
    }
  }
  return done;
}
