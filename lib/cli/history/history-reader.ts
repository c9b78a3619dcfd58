/**
 * What `nomad-restart history` reads: the histories its command line names, each read through the
 * run history store (lib/history/run-history.ts), their records merged newest first, and how each
 * provisional record's run stands (history-liveness.ts).
 */
import type { RunRecord } from '../../history/record';
import type { HistoryPlace, RunHistory } from '../../history/run-history';
import type { HistoryLine } from './history-args';

/** Histories read at once: enough to hide Nomad's latency, few enough to spare its servers. */
const READS_AT_ONCE = 8;

/** The records read, newest first, and how many items were no readable record. */
export interface HistoryRecords {
  readonly records: readonly RunRecord[];
  readonly unreadable: number;
}

const isJobPlace = (place: HistoryPlace): place is Extract<HistoryPlace, { jobId: string }> =>
  'jobId' in place;

/** The histories `line` names. */
async function placesOf(history: RunHistory, line: HistoryLine): Promise<HistoryPlace[]> {
  const { target, namespace } = line;
  if (namespace !== '*') {
    if (target.kind === 'job') return [{ namespace, jobId: target.jobId }];
    if (target.kind === 'fleets') return [{ namespace, fleets: true }];
  }
  const places = await history.places(namespace);
  if (target.kind === 'job') return places.filter((p) => isJobPlace(p) && p.jobId === target.jobId);
  if (target.kind === 'fleets') return places.filter((p) => !isJobPlace(p));
  return places;
}

/** Reads every place, {@link READS_AT_ONCE} at a time, and merges their records newest first. */
export async function readPlaces(
  history: RunHistory,
  places: readonly HistoryPlace[],
): Promise<HistoryRecords> {
  const records: RunRecord[] = [];
  let unreadable = 0;
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < places.length; i = next++) {
      const place = places[i];
      if (place === undefined) continue;
      const read = await history.read(place);
      records.push(...read.records);
      unreadable += read.unreadable;
    }
  };
  await Promise.all(Array.from({ length: Math.min(READS_AT_ONCE, places.length) }, worker));
  // A run ID breaks ties so that the order never depends on which read answered first.
  records.sort((a, b) => b.startedAt - a.startedAt || (a.runId < b.runId ? -1 : 1));
  return { records, unreadable };
}

/** The records of the histories `line` names, newest first. */
export async function readHistory(history: RunHistory, line: HistoryLine): Promise<HistoryRecords> {
  return readPlaces(history, await placesOf(history, line));
}

/** The job records of `namespace` (`*`: every namespace), to find a fleet run's jobs. */
export async function readJobRuns(history: RunHistory, namespace: string): Promise<readonly RunRecord[]> {
  const places = (await history.places(namespace)).filter(isJobPlace);
  return (await readPlaces(history, places)).records;
}

/** Whether run `record` is the one `prefix` names: its ID, or its execution's name, starts with it. */
export function matchesPrefix(record: RunRecord, prefix: string): boolean {
  const name = record.runId.slice(record.runId.lastIndexOf(':') + 1);
  return record.runId.startsWith(prefix) || name.startsWith(prefix);
}
