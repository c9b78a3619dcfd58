/**
 * The table of jobs printed when a prefix matches several jobs (Nomad's `command/meta.go`
 * `Meta.JobByPrefix`), laid out like Nomad's `formatList`, and the layout of Nomad's tables and
 * key/value blocks it uses (the `columnize` library: `command/helpers.go` `formatList`, `formatKV`).
 */
import type { JobListStub } from '../nomad/types';
import { formatTimestamp } from './text';

/** What a cell shows when it is empty (Nomad's `columnConf.Empty`). */
const EMPTY = '<none>';

/**
 * Lays out `cells` (rows of cells): each cell trimmed, empty ones shown as `<none>`, columns padded
 * to their widest cell and joined by `glue`, the last column not padded. Cells are given apart, so
 * a `|` in a value (a run's reason) stays in its cell.
 */
export function columnizeCells(cells: readonly (readonly string[])[], glue = '  '): string {
  const rows = cells.map((row) => row.map((c) => c.trim() || EMPTY));
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, [...cell].length);
    });
  }
  return rows
    .map((row) =>
      row
        .map((cell, i) =>
          i === row.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - [...cell].length),
        )
        .join(glue),
    )
    .join('\n');
}

/** `columnize.Format` with Nomad's config (`formatList`): `|`-separated rows. */
export function columnize(rows: readonly string[]): string {
  return columnizeCells(rows.map((row) => row.split('|')));
}

/** Nomad's `formatKV`: `Label = value` lines, the labels padded to the longest. */
export function formatKV(pairs: readonly (readonly [string, string])[]): string {
  return columnizeCells(pairs, ' = ');
}

/** Nomad asks for at most this many jobs; a full page may mean more exist. */
export const PREFIX_PAGE_SIZE = 20;

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
