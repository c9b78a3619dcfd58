/**
 * The table of jobs printed when a prefix matches several jobs (Nomad's `command/meta.go`
 * `Meta.JobByPrefix`), laid out like Nomad's `formatList` (the `columnize` library).
 */
import type { JobListStub } from '../nomad/types';
import { formatTimestamp } from './text';

/** Nomad asks for at most this many jobs; a full page may mean more exist. */
export const PREFIX_PAGE_SIZE = 20;

/**
 * `columnize.Format` with Nomad's config: `|`-separated cells trimmed, empty cells shown
 * as `<none>`, columns padded to their widest cell and glued with two spaces, the last
 * column not padded.
 */
export function columnize(rows: readonly string[]): string {
  const cells = rows.map((row) => row.split('|').map((c) => c.trim() || '<none>'));
  const widths: number[] = [];
  for (const row of cells) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, [...cell].length);
    });
  }
  return cells
    .map((row) =>
      row
        .map((cell, i) =>
          i === row.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - [...cell].length),
        )
        .join('  '),
    )
    .join('\n');
}

function typeText(job: JobListStub): string {
  return `${job.Type ?? ''}${job.Periodic ? '/periodic' : ''}${job.ParameterizedJob ? '/parameterized' : ''}`;
}

function submitDate(job: JobListStub, timeZone: string | undefined): string {
  // Nomad prints nothing (hence `<none>`) for times before 1970-01-01T00:00:01Z.
  const ns = job.SubmitTime ?? 0;
  return ns < 1e9 ? '' : formatTimestamp(Math.floor(ns / 1e6), timeZone);
}

/**
 * The job table of the multiple-match error, with a `Namespace` column when all
 * namespaces (`*`) were searched, and `(results may be truncated)` on a full page.
 */
export function formatPrefixMatches(
  jobs: readonly JobListStub[],
  opts: { allNamespaces: boolean; truncated: boolean; timeZone?: string },
): string {
  const header = opts.allNamespaces
    ? 'ID|Namespace|Type|Priority|Status|Submit Date'
    : 'ID|Type|Priority|Status|Submit Date';
  const rows = jobs.map((job) => {
    const cells = [
      job.ID,
      ...(opts.allNamespaces ? [job.JobSummary?.Namespace ?? ''] : []),
      typeText(job),
      String(job.Priority ?? 0),
      `${job.Status ?? ''}${job.Stop ? ' (stopped)' : ''}`,
      submitDate(job, opts.timeZone),
    ];
    return cells.join('|');
  });
  const table = columnize([header, ...rows]);
  return opts.truncated ? `${table}\n(results may be truncated)` : table;
}
