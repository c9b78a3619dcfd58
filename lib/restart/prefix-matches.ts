/**
 * The table of jobs printed when a prefix matches several jobs (Nomad's `command/meta.go`
 * `Meta.JobByPrefix`), laid out like Nomad's `formatList` (the `columnize` library).
 */
import type { JobListStub } from '../nomad/types';
import { columnize } from './columnize';
import { formatTimestamp } from './text';

export { columnize };

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
