/**
 * The texts of the freshness report (issue #38), for every reader of it: the one formatter
 * (format.ts) places them as header and detail lines, the run's summary (run-summary.ts) and the
 * run-end notification print them as they are.
 */
import { goQuote } from '../go/quote';
import type { FreshnessReport, StaleWhy } from './events';
import { plural } from './text';

/** Why an allocation is still stale, in words. */
export const STALE_WORDS: Readonly<Record<StaleWhy, string>> = {
  failed: 'its restart failed',
  'not-reached': 'the run ended before reaching it',
  locked: 'another run held the job',
};

/** `Freshness: <n> allocations checked, <r> restarted, <f> already fresh, <s> still stale`. */
export function freshnessCountsText(report: FreshnessReport): string {
  const stale = report.stale.length + (report.staleOmitted ?? 0);
  return `Freshness: ${plural(report.checked, 'allocation', 'allocations')} checked, ${report.restarted} restarted, ${report.alreadyFresh} already fresh, ${stale} still stale`;
}

/** One line per stale allocation (`id` shortens IDs as the formatter does), then how many were left out. */
export function staleTexts(report: FreshnessReport, id: (allocationId: string) => string): string[] {
  const lines = report.stale.map(
    (s) => `Allocation ${goQuote(id(s.allocationId))} started before the time given: ${STALE_WORDS[s.why]}`,
  );
  const omitted = report.staleOmitted ?? 0;
  if (omitted > 0)
    lines.push(`... and ${plural(omitted, 'more stale allocation', 'more stale allocations')}`);
  return lines;
}

/**
 * `Every allocation in scope started after <T>`: only for a report with nothing stale, which a
 * report has only when the re-read showed every allocation it restarted fresh (freshness.ts).
 */
export function allFreshText(report: FreshnessReport, time: (ms: number) => string): string | undefined {
  if (report.stale.length > 0 || (report.staleOmitted ?? 0) > 0) return undefined;
  return `Every allocation in scope started after ${time(report.startedBefore)}`;
}
