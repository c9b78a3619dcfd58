/**
 * Whether a provisional record's run still runs, told with a reader's token alone (the README's
 * reader policy: `read` on `nomad-restart/locks/*`, `list` on `nomad-restart/history/*`): while
 * it holds its job's lock, by the rule lib/stores/lock-liveness.ts states (the lock variable names
 * it and was last written before the history variable).
 */
import type { RunRecord } from '../../history/record';
import type { NomadClient } from '../../nomad/client';
import type { Variable } from '../../nomad/variables';
import { holdsJobLock } from '../../stores/lock-liveness';
import { holderOf } from '../../stores/nomad-variables-lock';
import { runHistoryPath, sharedLockPath } from '../../stores/shared-lock-settings';
import type { RunState, ShownRun } from './history-view';

/** A variable's read, kept per namespace and path so each is asked once. */
type Cache = Map<string, Promise<Variable | undefined>>;

function cached(cache: Cache, key: string, read: () => Promise<Variable | undefined>) {
  let value = cache.get(key);
  if (value === undefined) {
    value = read();
    cache.set(key, value);
  }
  return value;
}

/** The history variable's metadata, from a listing (no items: `list` is what readers hold). */
async function historyMetadata(nomad: NomadClient, record: RunRecord): Promise<Variable | undefined> {
  const path = runHistoryPath(record.jobId);
  const listed = await nomad.variables().list(path, { namespace: record.namespace });
  return listed.find((v) => v.Path === path);
}

/** Whether job run `record` (provisional) still holds its job's lock. */
async function holdsLock(nomad: NomadClient, record: RunRecord, cache: Cache): Promise<boolean> {
  const at = `${record.namespace}\n${record.jobId}`;
  const lock = await cached(cache, `lock\n${at}`, () =>
    nomad.variables().read(sharedLockPath(record.jobId), { namespace: record.namespace }),
  );
  // A lock that names another run settles it without the history's listing.
  if (holderOf(lock)?.runId !== record.runId) return false;
  const history = await cached(cache, `history\n${at}`, () => historyMetadata(nomad, record));
  return holdsJobLock(record.runId, lock, {
    index: history?.ModifyIndex,
    ended: record.outcome !== 'running',
  });
}

/**
 * How each of `records` stands: a final record `ended`; a provisional job record `running` while
 * its run holds the job's lock, else `never-finished`; a provisional fleet record `running` while
 * one of its jobs' runs (among `jobRuns`, the job records read beside it) is.
 * @throws UnexpectedResponseError as Nomad answers a read of a lock or a listing of a history
 */
export async function runStates(
  nomad: NomadClient,
  records: readonly RunRecord[],
  jobRuns: readonly RunRecord[] = [],
): Promise<ShownRun[]> {
  const cache: Cache = new Map();
  const stateOf = async (record: RunRecord): Promise<RunState> => {
    if (record.outcome !== 'running') return 'ended';
    if (record.kind === 'job') return (await holdsLock(nomad, record, cache)) ? 'running' : 'never-finished';
    for (const job of jobRuns) {
      if (
        job.fleetRunId === record.runId &&
        job.outcome === 'running' &&
        (await holdsLock(nomad, job, cache))
      )
        return 'running';
    }
    return 'never-finished';
  };
  return Promise.all(records.map(async (record) => ({ record, state: await stateOf(record) })));
}
