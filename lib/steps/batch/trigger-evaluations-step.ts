/**
 * "Trigger evaluations": for `-reschedule` on a system job, one evaluation with
 * `ForceReschedule` per stopped allocation's job, without which no replacement appears.
 */
import type { BatchOutput, BatchStepInput } from '../../workflow/restart-steps';
import { type AwaitCursor, createAwaitCursor } from '../await/await-cursor';
import type { AllocationOutcome } from '../kit/outcomes';
import type { StepKit } from '../kit/step-kit';
import { triggerEvaluations } from './reschedule';

export async function triggerEvaluationsStep(
  kit: StepKit,
  { options, run, plan: ref, batch }: BatchStepInput,
): Promise<BatchOutput> {
  const cursorKey = kit.key(run.runId, `cursor-${batch.index}.json`);
  const cursor = (await kit.planStore.get(cursorKey)) as AwaitCursor;
  const stopped: AllocationOutcome[] = cursor.waiting.map((w) => ({
    allocationId: w.allocationId,
    group: w.group,
    status: 'stopped',
    stopIndex: w.stopIndex,
  }));
  const { nomad, plan, events, watch } = await kit.planWork(options, ref.planKey);
  const evaluated = await triggerEvaluations(nomad, plan, batch.index, stopped, options, watch);
  const settled = [...Object.values(cursor.settled), ...evaluated];
  const next = createAwaitCursor(batch.index, settled, { now: kit.now });
  await kit.planStore.put(cursorKey, { ...next, startedAt: cursor.startedAt });
  return { events, batch };
}
