/**
 * "Await batch": one time slice of waiting for the batch's replacements; the graph loops on it
 * until the batch is done, so no Lambda outlives its timeout.
 */

import type { AwaitOutput, BatchStepInput } from '../../workflow/restart-steps';
import { batchFinished } from '../kit/batch-finished';
import type { StepKit } from '../kit/step-kit';
import { awaitBatch } from './await-batch';
import { readAwaitCursor, writeAwaitCursor } from './await-cursor';

export async function awaitBatchStep(kit: StepKit, input: BatchStepInput): Promise<AwaitOutput> {
  const { options, run, plan: ref, batch } = input;
  const { nomad, plan, events, watch } = await kit.planWork(options, input.plan.planKey);
  const cursor = await readAwaitCursor(kit.planStore, run.runId, batch.index);
  const result = await awaitBatch(nomad, plan, batch.index, cursor, options, watch);
  await writeAwaitCursor(kit.planStore, run.runId, batch.index, result.cursor);
  if (!result.done) return { events, done: false, cursor: null, batch };
  // The replacements settled the batch, unless "Await health" judges it next.
  if (options.waitHealthy === undefined)
    watch.emit(batchFinished({ batch, batches: ref.batchCount, outcomes: result.outcomes, now: kit.now() }));
  return { events, done: true, cursor: null, batch: await kit.settle(run.runId, batch, result.outcomes) };
}
