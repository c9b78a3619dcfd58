/**
 * "Await health" (`-wait-healthy`): one time slice of a batch's health wait; the graph loops on it
 * until every allocation of the batch is healthy, has failed or is past `-healthy-deadline`, and
 * the batch's result then counts those that failed the gate.
 */

import { alarmFiredError } from '../../restart/alarms';
import { planKeys } from '../../stores/plan-keys';
import type { AwaitOutput, BatchStepInput } from '../../workflow/restart-steps';
import { recordAlarmStop } from '../alarms/alarm-stop';
import { watchAlarms } from '../alarms/alarm-watch';
import { CLOCK_SKEW_ALLOWANCE_MS } from '../batch/in-place';
import { batchFinished } from '../kit/batch-finished';
import type { BatchResult, StepKit } from '../kit/step-kit';
import { awaitHealth } from './await-health';
import { createHealthCursor, type HealthCursor, healthOutcomes } from './health-cursor';

export async function awaitHealthStep(kit: StepKit, input: BatchStepInput): Promise<AwaitOutput> {
  const { options, run, plan: ref, batch } = input;
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
  // With -stop-on-alarm, an alarm in ALARM ends the wait at once (lib/steps/alarms/alarm-watch.ts).
  const alarms = watchAlarms(kit, options, watch.signal);
  const result = await awaitHealth(nomad, plan, cursor, gate, options.verbose, {
    ...watch,
    ...(alarms === undefined ? {} : { signal: alarms.signal }),
    consul: kit.consul,
  });
  const fired = await alarms?.stop();
  await planStore.put(cursorKey, result.cursor);
  const finished = (outcomes: ReturnType<typeof healthOutcomes>) =>
    watch.emit(
      batchFinished({
        batch,
        batches: ref.batchCount,
        outcomes,
        now: now(),
        healthStartedAt: result.cursor.startedAt,
      }),
    );
  if (fired !== undefined) {
    // The batch settles as it stands; the recorded stop makes Decide finish the run.
    events.push(...(await recordAlarmStop(kit, run.runId, fired, { asRunError: false })));
    const outcomes = healthOutcomes(result.cursor);
    finished(outcomes);
    const settled = await kit.settle(run.runId, batch, outcomes, [alarmFiredError(fired)]);
    return { events, done: true, cursor: null, batch: settled };
  }
  if (!result.done) return { events, done: false, cursor: null, batch };
  const outcomes = healthOutcomes(result.cursor);
  finished(outcomes);
  return { events, done: true, cursor: null, batch: await kit.settle(run.runId, batch, outcomes) };
}
