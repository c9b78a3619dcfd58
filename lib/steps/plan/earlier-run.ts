/**
 * What an earlier run of the same job already did, so a new run does not do it again. A run
 * that holds a job's lock names itself in the job's record (`jobs/<namespace>/<job>/run.json` in
 * the plan store); releasing the lock through the workflow (either way out) marks it ended. A run
 * that never got there (an execution aborted or timed out: the status-change path freed its lock)
 * left its plan and batch journals behind, and the next run of the job resumes it: it skips the
 * allocations that run restarted in place, those it stopped, and their replacements.
 */
import type { Allocation, AllocListStub } from '../../nomad/types';
import type { EarlierRunWork } from '../../restart/earlier-work';
import type { RestartPlan } from '../../restart/plan';
import { planKeys } from '../../stores/plan-keys';
import { getIfPresent, type PlanStore } from '../../stores/plan-store';
import { allocationRestartedSince } from '../batch/in-place';
import { alreadyStopped } from '../batch/reschedule';
import type { BatchJournal } from '../batch/restart-batch';

/** The job's record of the run that last held its lock. */
export interface JobRunRecord {
  readonly runId: string;
  /** Where that run's plan is (its batch journals sit beside it). */
  readonly planKey: string;
  /** Set when the run released the job through the workflow: it has nothing left to resume. */
  readonly endedAt?: number;
}

/** A job's record in the plan store: outside `runs/`, so it outlives every run's documents. */
export const jobRunKey = planKeys.jobRun;

/** Names `runId` as the run holding the job (called once it holds the lock). */
export async function recordRunHoldsJob(store: PlanStore, key: string, runId: string, planKey: string) {
  const record: JobRunRecord = { runId, planKey };
  await store.put(key, record);
}

/** Marks the job's record ended, if it still names `runId` (a run that never held the job changes nothing). */
export async function recordRunEnded(store: PlanStore, key: string, runId: string, now: number) {
  const record = await getIfPresent<JobRunRecord>(store, key);
  if (record?.runId !== runId || record.endedAt !== undefined) return;
  await store.put(key, { ...record, endedAt: now } satisfies JobRunRecord);
}

/** An earlier run that did not end, as its documents describe it. */
export interface UnfinishedRun {
  readonly runId: string;
  readonly plan: RestartPlan;
  /** Its batch journals, from the first batch to the last one it started. */
  readonly journals: readonly BatchJournal[];
}

/**
 * The run named in the job's record when it did not end and is not `ownRunId`, with its plan
 * and journals; `undefined` when there is nothing to resume. A failing read throws (the step
 * is retried) rather than planning without what the earlier run did.
 */
export async function readUnfinishedRun(
  store: PlanStore,
  key: string,
  ownRunId: string,
): Promise<UnfinishedRun | undefined> {
  const record = await getIfPresent<JobRunRecord>(store, key);
  if (record === undefined || record.endedAt !== undefined || record.runId === ownRunId) return undefined;
  const plan = await getIfPresent<RestartPlan>(store, record.planKey);
  if (plan === undefined) return undefined;
  const journals: BatchJournal[] = [];
  // Batches start in order, so the first one without a journal ends the list.
  for (let index = 0; index < plan.batches.length; index++) {
    const journal = await getIfPresent<BatchJournal>(
      store,
      planKeys.batchJournalBesidePlan(record.planKey, index),
    );
    if (journal === undefined) break;
    journals.push(journal);
  }
  return { runId: record.runId, plan, journals };
}

/** Reads one allocation whole, task states included. */
export type WholeAllocationReader = (allocationId: string) => Promise<Allocation>;

/**
 * What `earlier` did, checked against the job's allocations now: the outcomes its journals
 * recorded, plus those it had in flight when it stopped that Nomad shows restarted (a
 * `Restart Signaled` since the batch started) or stopped (`DesiredTransition.Migrate`, or a
 * replacement linked). Carries forward what `earlier` itself resumed from. A large job's stubs
 * come without task states (`job-allocations-read.ts`): an in-flight allocation's restart is then
 * looked for in the allocation read whole (at most a batch of reads), never assumed not to be.
 */
export async function workOf(
  earlier: UnfinishedRun,
  stubs: readonly AllocListStub[],
  readWhole: WholeAllocationReader,
): Promise<EarlierRunWork> {
  const restarted = new Set(earlier.plan.resumed?.restarted);
  const stopped = new Set(earlier.plan.resumed?.stopped);
  const byId = new Map(stubs.map((stub) => [stub.ID, stub]));
  for (const [index, journal] of earlier.journals.entries()) {
    for (const allocation of earlier.plan.batches[index] ?? []) {
      const status = journal.outcomes[allocation.id]?.status;
      if (status === 'restarted') restarted.add(allocation.id);
      else if (status === 'stopped' || status === 'replaced') stopped.add(allocation.id);
      else {
        const stub = byId.get(allocation.id);
        if (stub === undefined) continue;
        const now = stub.TaskStates == null ? await readWhole(allocation.id) : stub;
        if (allocationRestartedSince(now, journal.startedAt)) restarted.add(allocation.id);
        else if (alreadyStopped(now)) stopped.add(allocation.id);
      }
    }
  }
  return { runId: earlier.runId, restarted: [...restarted], stopped: [...stopped] };
}
