/**
 * "Await health" (`-wait-healthy`): one time slice of a batch's health wait; the graph loops on it
 * until every allocation of the batch is healthy, has failed or is past `-healthy-deadline`, and
 * the batch's result then counts those that failed the gate.
 */

import { planKeys } from '../../stores/plan-keys';
import type { AwaitOutput, BatchStepInput } from '../../workflow/restart-steps';
import { CLOCK_SKEW_ALLOWANCE_MS } from '../batch/in-place';
import type { BatchResult, StepKit } from '../kit/step-kit';
import { awaitHealth } from './await-health';
import { createHealthCursor, type HealthCursor, healthOutcomes } from './health-cursor';

export async function awaitHealthStep(
  kit: StepKit,
  { options, run, plan: ref, batch }: BatchStepInput,
): Promise<AwaitOutput> {
  const gate = options.waitHealthy;
  if (gate === undefined) return { events: [], done: true, cursor: null, batch };
  const { planStore, now } = kit;
  const { nomad, plan, events, watch } = await kit.planWork(options, ref.planKey);
  const cursorKey = planKeys.healthCursor(run.runId, batch.index);
  let cursor = await kit.tryGet<HealthCursor>(cursorKey);
  if (cursor === undefined) {
    const settled = (await planStore.get(planKeys.batchResult(run.runId, batch.index))) as BatchResult;
    cursor = createHealthCursor(batch.index, settled.outcomes ?? [], {
      now: now(),
      // In place, a restart seen since the batch began is ours: its task must start again.
      restartedSinceMs: options.reschedule ? undefined : batch.startedAt - CLOCK_SKEW_ALLOWANCE_MS,
    });
    if (cursor.watching.length > 0)
      watch.emit({
        type: 'health-waiting',
        time: cursor.startedAt,
        count: cursor.watching.length,
        minHealthyTimeNs: gate.minHealthyTimeNs,
        healthyDeadlineNs: gate.healthyDeadlineNs,
        ...(plan.consulServices === undefined ? {} : { consulServices: plan.consulServices }),
      });
  }
  const result = await awaitHealth(nomad, plan, cursor, gate, options.verbose, {
    ...watch,
    consul: kit.consul,
  });
  await planStore.put(cursorKey, result.cursor);
  if (!result.done) return { events, done: false, cursor: null, batch };
  return {
    events,
    done: true,
    cursor: null,
    batch: await kit.settle(run.runId, batch, healthOutcomes(result.cursor)),
  };
}
