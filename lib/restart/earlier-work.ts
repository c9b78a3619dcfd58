/**
 * What an earlier run of a job that never ended did, and a plan without it: a new run of the job
 * leaves out the allocations that run restarted or stopped, and the replacements of those it
 * stopped (lib/steps/earlier-run.ts finds them).
 */
import type { AllocListStub } from '../nomad/types';
import type { PlannedAllocation } from './filter';

/**
 * What an earlier run of the job that never ended did (lib/steps/earlier-run.ts): a plan that
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
 * `eligible` without what `work` covers: allocations restarted or stopped by the earlier run,
 * and the replacements of those it stopped (followed through `NextAllocation`: list stubs carry
 * no `PreviousAllocation`, so a replacement whose original was garbage-collected is not known).
 */
export function withoutEarlierWork(
  eligible: readonly PlannedAllocation[],
  stubs: readonly AllocListStub[],
  work: EarlierRunWork,
): PlannedAllocation[] {
  const done = new Set([...work.restarted, ...work.stopped]);
  const next = new Map(stubs.map((stub) => [stub.ID, stub.NextAllocation]));
  for (const id of work.stopped) {
    for (let replacement = next.get(id); replacement && !done.has(replacement); ) {
      done.add(replacement);
      replacement = next.get(replacement);
    }
  }
  return eligible.filter((allocation) => !done.has(allocation.id));
}
