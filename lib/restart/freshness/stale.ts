/**
 * What a freshness report's stale list means for the run: how many allocations are still stale,
 * and whether that fails the run (exit 1). Read from a report or from a summary's copy of it.
 */
import type { FreshnessReport } from '../events';

/** How many allocations are still stale, the ones a report leaves out included. */
export function staleCount(report: Pick<FreshnessReport, 'stale' | 'staleOmitted'>): number {
  return report.stale.length + (report.staleOmitted ?? 0);
}

/**
 * Whether stale allocations make the run exit 1 (as a failed batch does): any, unless all of
 * them are only `locked` (a scheduled run skipped for another run, which is not a failure).
 */
export function staleFails(report: Pick<FreshnessReport, 'stale' | 'staleOmitted'>): boolean {
  // `locked` is all or nothing: a run skipped for the lock restarted none of its allocations.
  return staleCount(report) > 0 && !report.stale.every((s) => s.why === 'locked');
}
