/**
 * "Restart batch" (and "Stop allocations"): starts every allocation of the next batch, with a
 * journal so a retried task restarts nothing twice. In place, the batch settles here; with
 * `-reschedule` it leaves an await cursor for "Await batch".
 */

import { planKeys } from '../../stores/plan-keys';
import type { BatchOutput, PlannedStepInput } from '../../workflow/restart-steps';
import { createAwaitCursor, writeAwaitCursor } from '../await/await-cursor';
import { batchFinished } from '../kit/batch-finished';
import type { StepKit } from '../kit/step-kit';
import { type BatchJournal, restartBatch } from './restart-batch';

export async function restartBatchStep(
  kit: StepKit,
  { options, run, plan: ref, progress }: PlannedStepInput,
): Promise<BatchOutput> {
  const { planStore, now } = kit;
  const { nomad, plan, events, watch } = await kit.planWork(options, ref.planKey);
  const index = progress.nextBatch;
  const journalKey = planKeys.batchJournal(run.runId, index);
  const journal = await kit.tryGet<BatchJournal>(journalKey);
  // The batch starts when its journal says, before the first restart request: "Await health"
  // counts a restart from then, so a start taken after the requests (which can take longer than
  // the clock-skew allowance) would hide our own restarts from it until the deadline.
  let startedAt = journal?.startedAt;
  const record = (j: BatchJournal) => {
    startedAt ??= j.startedAt;
    return planStore.put(journalKey, j);
  };
  const outcomes = await restartBatch(nomad, plan, index, options, { ...watch, journal, record });
  const batch = { index, size: outcomes.length, startedAt: startedAt ?? now() };
  if (!options.reschedule) {
    // In place the batch ends here, unless "Await health" judges it next.
    if (options.waitHealthy === undefined)
      watch.emit(batchFinished({ batch, batches: ref.batchCount, outcomes, now: now() }));
    return { events, batch: await kit.settle(run.runId, batch, outcomes) };
  }
  const cursor = createAwaitCursor(index, outcomes, { now });
  await writeAwaitCursor(planStore, run.runId, index, cursor);
  const stopIndexes = outcomes.flatMap((o) => (o.status === 'stopped' ? [o.stopIndex] : []));
  return {
    events,
    batch: {
      ...batch,
      stopIndex: stopIndexes.length > 0 ? Math.min(...stopIndexes) : 0,
      done: false,
      cursor: null,
      errorCount: 0,
      unrecoverable: false,
    },
  };
}
