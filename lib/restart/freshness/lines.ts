/**
 * The texts of the freshness report (issue #38), for every reader of it: the one formatter
 * (../format.ts) places them as header and detail lines, the run's summary (../run-summary.ts) and the
 * run-end notification print them as they are.
 */
import { goQuote } from '../../go/quote';
import type { FreshnessReport, StaleWhy } from '../events';
import { plural } from '../text';
import { staleCount } from './stale';

/** Why an allocation is still stale, in words. */
export const STALE_WORDS: Readonly<Record<StaleWhy, string>> = {
  failed: 'its restart failed',
  'not-reached': 'the run ended before reaching it',
  locked: 'another run held the job',
};

/** What the texts read of a report: its counts and stale list (a summary's copy has them too). */
export type FreshnessCounts = Pick<
  FreshnessReport,
  'checked' | 'restarted' | 'alreadyFresh' | 'stale' | 'staleOmitted'
>;

/** `Freshness: <n> allocations checked, <r> restarted, <f> already fresh, <s> still stale`. */
export function freshnessCountsText(report: FreshnessCounts): string {
  return `Freshness: ${plural(report.checked, 'allocation', 'allocations')} checked, ${report.restarted} restarted, ${report.alreadyFresh} already fresh, ${staleCount(report)} still stale`;
}

/**
 * One line per stale allocation (`id` shortens IDs as the formatter does), the first `limit` of
 * them, then how many were left out.
 */
export function staleTexts(
  report: FreshnessCounts,
  id: (allocationId: string) => string,
  limit = report.stale.length,
): string[] {
  const lines = report.stale
    .slice(0, limit)
    .map(
      (s) => `Allocation ${goQuote(id(s.allocationId))} started before the time given: ${STALE_WORDS[s.why]}`,
    );
  const omitted = report.stale.length - lines.length + (report.staleOmitted ?? 0);
  if (omitted > 0)
    lines.push(`... and ${plural(omitted, 'more stale allocation', 'more stale allocations')}`);
  return lines;
}

/**
 * `Every allocation in scope started after <T>`: only for a report with nothing stale, which a
 * report has only when the re-read showed every allocation it restarted fresh (report.ts).
 */
export function allFreshText(report: FreshnessCounts, startedBefore: string): string | undefined {
  if (staleCount(report) > 0) return undefined;
  return `Every allocation in scope started after ${startedBefore}`;
}

/** The freshness report in a summary: as the `freshness` event carries it, the time as RFC 3339. */
export type FreshnessOfRun = Omit<FreshnessReport, 'namespace' | 'jobId' | 'startedBefore'> & {
  readonly startedBefore: string;
};

/** A report as a summary carries it; `time` writes the summary's times. */
export function freshnessOfRun(r: FreshnessReport, time: (ms: number) => string): FreshnessOfRun {
  return {
    startedBefore: time(r.startedBefore),
    checked: r.checked,
    restarted: r.restarted,
    alreadyFresh: r.alreadyFresh,
    stale: r.stale,
    ...(r.staleOmitted === undefined ? {} : { staleOmitted: r.staleOmitted }),
  };
}

/** Stale allocations a summary names one by one; the rest it counts (a Fail cause stays short). */
const SUMMARY_STALE_LINES = 10;

/** A summary's freshness lines: the counts, the first stale allocations in full, or the all-fresh line. */
export function summaryFreshnessLines(f: FreshnessOfRun): string[] {
  const last = allFreshText(f, f.startedBefore);
  return [
    freshnessCountsText(f),
    ...staleTexts(f, (id) => id, SUMMARY_STALE_LINES),
    ...(last === undefined ? [] : [last]),
  ];
}
