/**
 * The table `nomad-restart history` prints (docs/history.md): one row per recorded run, newest
 * first, laid out like Nomad's own lists (`columnize`), times as Nomad prints them (RFC 3339 in
 * the local zone) and durations as Go prints them.
 */
import { formatGoDuration } from '../../go/duration';
import type { RunRecord } from '../../history/record';
import { columnizeCells } from '../../restart/prefix-matches';
import type { RunOutcome } from '../../restart/run/outcome';
import { formatTimestamp } from '../../restart/text';

/**
 * How a recorded run stands as the reader sees it: `ended` (a final record), `running` (a
 * provisional record whose run still holds the job's lock), `never-finished` (a provisional record
 * whose run no longer holds it: it died, as a terminal killed with SIGKILL does).
 */
export type RunState = 'ended' | 'running' | 'never-finished';

/** A record and how its run stands. */
export interface ShownRun {
  readonly record: RunRecord;
  readonly state: RunState;
}

/** How the table is laid out. */
export interface HistoryTableOptions {
  /** A `Job` column: the runs of every job of the namespace, not of one job. */
  readonly withJob: boolean;
  /** A `Namespace` column: the runs of every namespace (`-namespace '*'`). */
  readonly withNamespace: boolean;
  /** An IANA zone for the times; default: the process's local zone, as Nomad prints them. */
  readonly timeZone?: string;
}

/** The longest reason a table cell shows; the full view and `-output json` show all of it. */
export const TABLE_REASON_LENGTH = 40;

/** An ended run's outcome in the reader's words (`canceled` says by whom when the record does). */
const OUTCOME_TEXT: Readonly<Record<RunOutcome, string>> = {
  succeeded: 'succeeded',
  canceled: 'canceled',
  failed: 'failed',
  unrecoverable: 'unrecoverable error',
  'stopped-at-window-end': 'stopped at window end',
  'skipped-job-locked': 'skipped: job locked',
  aborted: 'aborted',
  'timed-out': 'timed out',
  error: 'error',
};

/** The run's outcome as the table shows it: `succeeded`, `canceled by bob@laptop`, `started, never finished`... */
export function outcomeText(run: ShownRun): string {
  const { record, state } = run;
  if (state === 'running') return 'running';
  if (state === 'never-finished' || record.outcome === 'running') return 'started, never finished';
  const text = OUTCOME_TEXT[record.outcome];
  return record.stoppedBy === undefined ? text : `${text} by ${record.stoppedBy}`;
}

/** A fleet's jobs by outcome, most first: `12 succeeded, 1 failed`. */
export function jobOutcomesText(record: RunRecord): string {
  return Object.entries(record.jobOutcomes ?? {})
    .filter(([, n]) => (n ?? 0) > 0)
    .sort(([, a], [, b]) => (b ?? 0) - (a ?? 0))
    .map(([outcome, n]) => `${n} ${OUTCOME_TEXT[outcome as RunOutcome] ?? outcome}`)
    .join(', ');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The run ID as a table shows it: an execution's name (a run's ID is its first execution's ARN),
 * and of a UUID its first 8 characters, as Nomad shortens IDs.
 */
export function shortRunId(runId: string): string {
  const name = runId.slice(runId.lastIndexOf(':') + 1);
  return UUID.test(name) ? name.slice(0, 8) : name;
}

/** `2m30s`: the run's length to the second; empty while it has no end. */
export function durationText(record: RunRecord): string {
  if (record.endedAt === undefined) return '';
  const seconds = Math.max(0, Math.round((record.endedAt - record.startedAt) / 1000));
  return formatGoDuration(seconds * 1e9);
}

/** A reason on one table line: cut at {@link TABLE_REASON_LENGTH} characters, `…` marking the cut. */
function reasonCell(reason: string | undefined): string {
  const chars = [...(reason ?? '')];
  return chars.length <= TABLE_REASON_LENGTH
    ? chars.join('')
    : `${chars.slice(0, TABLE_REASON_LENGTH - 1).join('')}…`;
}

/** The Who cell: a fleet's job run names its fleet run by the ID the table shows for it. */
function whoCell(record: RunRecord): string {
  const fleet = record.fleetRunId;
  return fleet === undefined ? record.startedBy : record.startedBy.replace(fleet, shortRunId(fleet));
}

/** The Job cell: the job, or for a fleet's own record the fleet and its jobs by outcome. */
function jobCell(record: RunRecord): string {
  if (record.kind === 'job') return record.jobId;
  const outcomes = jobOutcomesText(record);
  return outcomes === '' ? 'fleet' : `fleet (${outcomes})`;
}

/** The table of `runs`, in the order given (the caller sorts them newest first). */
export function formatHistoryTable(runs: readonly ShownRun[], options: HistoryTableOptions): string {
  const header = [
    'ID',
    ...(options.withNamespace ? ['Namespace'] : []),
    ...(options.withJob ? ['Job'] : []),
    'When',
    'Who',
    'Why',
    'What',
    'Outcome',
    'Restarted/Failed/Planned',
    'Duration',
  ];
  const rows = runs.map(({ record, state }) => {
    const { counts } = record;
    return [
      shortRunId(record.runId),
      ...(options.withNamespace ? [record.namespace] : []),
      ...(options.withJob ? [jobCell(record)] : []),
      formatTimestamp(record.startedAt, options.timeZone),
      whoCell(record),
      reasonCell(record.reason),
      record.options,
      outcomeText({ record, state }),
      `${counts.restarted}/${counts.failed}/${counts.planned}`,
      durationText(record),
    ];
  });
  return columnizeCells([header, ...rows]);
}
