/**
 * One run in full (`nomad-restart history <job> <run ID prefix>`): every field of its record,
 * labelled as `nomad alloc status` labels an allocation's (`formatKV`), then its errors and, for a
 * fleet run, its jobs by outcome and the job runs linked to it.
 */
import type { RunRecord } from '../../history/record';
import { columnize, formatKV } from '../../restart/prefix-matches';
import { formatTimestamp } from '../../restart/text';
import { durationText, jobOutcomesText, outcomeText, type ShownRun, shortRunId } from './history-view';

const time = (ms: number | undefined, timeZone: string | undefined) =>
  ms === undefined ? '' : formatTimestamp(ms, timeZone);

/** The record's fields as `Label = value` pairs; an absent optional field shows `<none>`. */
function fields(run: ShownRun, timeZone: string | undefined): [string, string][] {
  const { record } = run;
  const { counts } = record;
  return [
    ['ID', record.runId],
    ['Kind', record.kind],
    ...(record.kind === 'job' ? ([['Job ID', record.jobId]] as [string, string][]) : []),
    ['Namespace', record.namespace],
    ['Engine', record.engine],
    ['Started By', record.startedBy],
    ['Reason', record.reason ?? ''],
    ...(record.kind === 'job' ? ([['Fleet Run', record.fleetRunId ?? '']] as [string, string][]) : []),
    ['Options', record.options],
    ['Outcome', outcomeText(run)],
    ['Stopped By', record.stoppedBy ?? ''],
    ['Started', time(record.startedAt, timeZone)],
    ['Ended', time(record.endedAt, timeZone)],
    ['Duration', durationText(record)],
    ['Window End', time(record.windowEnd, timeZone)],
    ['Execution', record.executionArn ?? ''],
    [record.kind === 'fleet' ? 'Jobs Planned' : 'Planned', String(counts.planned)],
    [record.kind === 'fleet' ? 'Jobs Succeeded' : 'Restarted', String(counts.restarted)],
    [record.kind === 'fleet' ? 'Jobs Failed' : 'Failed', String(counts.failed)],
    ['Skipped', String(counts.skipped)],
    ['Not Reached', String(counts.notReached)],
  ];
}

/** The errors section: one `*` line per kept error, and how many were left out of the record. */
function errorsSection(record: RunRecord): string[] {
  if (record.errors.length === 0 && record.omittedErrors === 0) return [];
  const more =
    record.omittedErrors > 0
      ? [`* ... and ${record.omittedErrors} more error${record.omittedErrors === 1 ? '' : 's'} not recorded`]
      : [];
  return ['', 'Errors', ...record.errors.map((e) => `* ${e}`), ...more];
}

/** A fleet run's sections: its jobs by outcome, and the job runs whose records link to it. */
function fleetSections(record: RunRecord, linked: readonly ShownRun[]): string[] {
  if (record.kind !== 'fleet') return [];
  const outcomes = jobOutcomesText(record);
  const rows = linked.map((run) => {
    const { counts } = run.record;
    return [
      shortRunId(run.record.runId),
      run.record.jobId,
      run.record.namespace,
      outcomeText(run),
      `${counts.restarted}/${counts.failed}/${counts.planned}`,
    ].join('|');
  });
  return [
    '',
    'Jobs by Outcome',
    outcomes === '' ? 'No job ended' : outcomes,
    '',
    'Job Runs',
    rows.length === 0
      ? 'No job run recorded for this fleet run'
      : columnize(['ID|Job|Namespace|Outcome|Restarted/Failed/Planned', ...rows]),
  ];
}

/**
 * The full view of `run`; `linked`: for a fleet run, the job runs recorded with its run ID as
 * their `fleetRunId` (ignored for a job's run).
 */
export function formatRunDetail(run: ShownRun, linked: readonly ShownRun[], timeZone?: string): string {
  return [
    formatKV(fields(run, timeZone)),
    ...errorsSection(run.record),
    ...fleetSections(run.record, linked),
  ].join('\n');
}
