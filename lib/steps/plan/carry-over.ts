/**
 * What earlier runs of the same restart already did, kept in the plan store across runs so a
 * later run restarts only the rest: a maintenance whose window ended before it was done goes on
 * in the schedule's next window (`resumeNextWindow`). One mechanism for any "skip what an
 * earlier run already did": a run records the allocations it restarted under a key, the next
 * run's Plan skips them (`SkipReason` `done`), and a run that finishes clears the record.
 *
 * The documents live under `maintenance/`, outside any run's prefix, so they outlive the runs
 * that wrote them and never expire with them.
 */
import type { RestartOptions } from '../../restart/options';
import type { RestartPlan } from '../../restart/plan';
import { planKeys } from '../../stores/plan-keys';
import type { StepKit } from '../kit/step-kit';

/** A carry-over document: the allocations restarted so far and the run that wrote it last. */
export interface CarryOver {
  readonly allocationIds: readonly string[];
  readonly updatedBy: string;
}

/**
 * The carry-over key of a run that resumes in the next window: its schedule and its job as the
 * input names them (the same for every run of that schedule), or `undefined` when the run does
 * not resume.
 */
export function carryOverKey(options: RestartOptions): string | undefined {
  if (options.resumeNextWindow !== true || options.scheduleName === undefined) return undefined;
  const namespace = options.namespace ?? 'default';
  return planKeys.carryOver(options.scheduleName, namespace, options.job);
}

/** The allocations earlier runs recorded under `key` (none when nothing was recorded). */
export async function loadCarryOver(kit: StepKit, key: string): Promise<ReadonlySet<string>> {
  const carry = await kit.tryGet<CarryOver>(key);
  return new Set(carry?.allocationIds ?? []);
}

/** Adds `allocationIds` to what `key` records. */
export async function addToCarryOver(
  kit: StepKit,
  key: string,
  allocationIds: Iterable<string>,
  runId: string,
): Promise<void> {
  const ids = new Set([...(await loadCarryOver(kit, key)), ...allocationIds]);
  const carry: CarryOver = { allocationIds: [...ids], updatedBy: runId };
  await kit.planStore.put(key, carry);
}

/** Forgets what `key` records: the restart is done, the next run starts over. */
export async function clearCarryOver(kit: StepKit, key: string, runId: string): Promise<void> {
  const carry: CarryOver = { allocationIds: [], updatedBy: runId };
  await kit.planStore.put(key, carry);
}

/**
 * The allocations run `runId` restarted: those of the batches it settled (before `nextBatch`)
 * less the ones with an error, which the next run tries again.
 */
export async function restartedByRun(
  kit: StepKit,
  runId: string,
  plan: RestartPlan,
  nextBatch: number,
): Promise<string[]> {
  const record = await kit.loadRun(runId);
  const failed = new Set(record.errors.map((error) => error.allocationId));
  return plan.batches
    .slice(0, nextBatch)
    .flat()
    .map((allocation) => allocation.id)
    .filter((id) => !failed.has(id));
}
