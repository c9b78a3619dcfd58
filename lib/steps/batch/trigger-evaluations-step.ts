/**
 * "Trigger evaluations": for `-reschedule` on a system job, one evaluation with
 * `ForceReschedule` per stopped allocation's job, without which no replacement appears.
 */

import type { BatchOutput, BatchStepInput } from '../../workflow/restart-steps';
import { createAwaitCursor, readAwaitCursor, writeAwaitCursor } from '../await/await-cursor';
import type { AllocationOutcome } from '../kit/outcomes';
import type { StepKit } from '../kit/step-kit';
import { triggerEvaluations } from './reschedule';

export async function triggerEvaluationsStep(
  kit: StepKit,
  { options, run, plan: ref, batch }: BatchStepInput,
): Promise<BatchOutput> {
  const cursor = await readAwaitCursor(kit.planStore, run.runId, batch.index);
  const stopped: AllocationOutcome[] = cursor.waiting.map((w) => ({
    allocationId: w.allocationId,
    group: w.group,
    status: 'stopped',
    stopIndex: w.stopIndex,
  }));
  const { nomad, plan, events, watch } = await kit.planWork(options, ref.planKey);
  const evaluated = await triggerEvaluations(nomad, plan, batch.index, stopped, options, watch);
  const next = createAwaitCursor(batch.index, [...Object.values(cursor.settled), ...evaluated], {
    now: kit.now,
  });
  await writeAwaitCursor(kit.planStore, run.runId, batch.index, { ...next, startedAt: cursor.startedAt });
  return { events, batch };
}
