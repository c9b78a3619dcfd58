/**
 * The maintenance window's end, met at the safe point before a batch: the run stops there, never
 * in the middle of a batch, and says how far it got.
 */

import { planKeys } from '../../stores/plan-keys';
import type { PlannedStepInput, StepEvents } from '../../workflow/restart-steps';
import type { StepKit } from '../kit/step-kit';
import { addToCarryOver, carryOverKey, restartedByRun } from '../plan/carry-over';

/**
 * At "Check deployments", when the maintenance window (`options.windowEnd`) has ended: records
 * that the run stops there (Finish then reports `stopped-at-window-end`) and emits `window-ended`
 * with the allocations done and left. Makes no Nomad call. The graph then finishes: the batch in
 * flight, if any, has already settled (this is a safe point).
 */
export async function stopAtWindowEndStep(
  kit: StepKit,
  { options, run, plan, progress }: PlannedStepInput,
): Promise<StepEvents> {
  const { events, emit } = kit.recorder();
  const record = await kit.loadRun(run.runId);
  // Finish reads why the run stopped from the record, as it does for -max-errors.
  await kit.planStore.put(planKeys.runRecord(run.runId), { ...record, stoppedOn: 'window-end' });
  // With resumeNextWindow, the schedule's next run restarts only what this one did not.
  const carryKey = carryOverKey(options);
  if (carryKey !== undefined) {
    const restarted = await restartedByRun(
      kit,
      run.runId,
      await kit.loadPlan(plan.planKey),
      progress.nextBatch,
    );
    await addToCarryOver(kit, carryKey, restarted, run.runId);
  }
  const done = progress.restarted + progress.failed;
  emit({
    type: 'window-ended',
    time: kit.now(),
    windowEnd: options.windowEnd ?? kit.now(),
    done,
    left: Math.max(0, plan.allocationCount - done),
  });
  return { events };
}
