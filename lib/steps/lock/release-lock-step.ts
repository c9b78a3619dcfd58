/**
 * Releasing the job's lock on every way out of a run: "Release lock" (success and every Catch) and
 * the cleanup after an execution that died outside a Catch (an abort, a timeout). Either way the
 * run is over: its plan-store documents may expire, and the job's record of it says it ended, so
 * the next run starts afresh instead of resuming it (see lib/steps/plan/earlier-run.ts).
 */
import type { UnfinishedEnd } from '../../history/run-history';
import type { LockKey } from '../../stores/job-lock';
import type { PairedJobLock } from '../../stores/paired-job-lock';
import { runKeyPrefix } from '../../stores/plan-keys';
import { endUnfinishedRecords, jobHistoryPlace } from '../kit/job-history';
import type { StepKit } from '../kit/step-kit';
import { jobRunKey, recordRunEnded } from '../plan/earlier-run';

/**
 * Frees the locks of run `runId` on `key` if it holds them (`false` when it did not) and marks the
 * run ended. Either may be unknown: the failure path starts before a plan exists.
 */
export async function releaseLockStep(
  kit: StepKit,
  lock: PairedJobLock,
  runId: string | undefined,
  key: LockKey | undefined,
): Promise<boolean> {
  if (runId === undefined) return false;
  let released = false;
  if (key !== undefined) {
    released = await lock.release(key, runId);
    await recordRunEnded(kit.planStore, jobRunKey(key.namespace, key.jobId), runId, kit.now());
  }
  // The last step of every way out: the run's documents may expire now.
  await kit.planStore.endRun(runKeyPrefix(runId));
  return released;
}

/**
 * Frees every lock run `runId` holds (its execution died), ends its provisional records in those
 * jobs' histories as `end` says, and ends its documents; answers how many jobs it freed.
 */
export async function releaseStaleLockStep(
  kit: StepKit,
  lock: PairedJobLock,
  runId: string,
  end: UnfinishedEnd,
): Promise<number> {
  const released = await lock.releaseByOwner(runId);
  await endUnfinishedRecords(kit.history, released.map(jobHistoryPlace), runId, end);
  await kit.planStore.endRun(runKeyPrefix(runId));
  return released.length;
}
