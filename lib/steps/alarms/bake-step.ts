/**
 * `-bake-time`: after the last batch, the run keeps watching its alarms for that long before it
 * succeeds (ECS deployment alarms and SSM Automation call this a bake). Decide starts the bake
 * ({@link startBake}); the graph then loops "Wait while baking" → "Check while baking" (this step,
 * run by the decide function) until the bake is over, an alarm fires, or a cancel comes.
 */
import { alarmNameOf } from '../../restart/alarms';
import type { EmitProgress } from '../../restart/events';
import type { RestartOptions } from '../../restart/options';
import type { Decision } from '../../workflow/payloads';
import type { BakeInput, DecisionOutput } from '../../workflow/restart-steps';
import { decision, type RunRecord, type StepKit } from '../kit/step-kit';
import { readFiredAlarm, recordAlarmStop } from './alarm-stop';

/**
 * The longest Wait between two checks of a bake. Each check is a Wait and a Task in the execution's
 * history (about 5 events): a 2-hour bake costs some 1,200 of the 25,000 an execution may hold.
 */
export const BAKE_CHECK_SECONDS = 30;

/** Whole seconds to the next check: at most {@link BAKE_CHECK_SECONDS}, never past the bake's end. */
export function bakeWaitSeconds(now: number, until: number): number {
  return Math.max(1, Math.min(BAKE_CHECK_SECONDS, Math.ceil((until - now) / 1000)));
}

/**
 * Decide after the last batch, for a run with `-bake-time` that has nothing wrong yet: the bake's
 * end in the record, the `baking` event, and the decision to wait for its first check.
 * `undefined` when the run does not bake (no `-bake-time`, errors, or a stop already recorded).
 */
export function startBake(
  options: RestartOptions,
  record: RunRecord,
  now: number,
  emit: EmitProgress,
): { record: RunRecord; decision: Decision } | undefined {
  if (options.bakeTimeMs === undefined || record.errors.length > 0 || record.stoppedOn !== undefined) {
    return undefined;
  }
  const until = now + options.bakeTimeMs;
  emit({ type: 'baking', time: now, until, alarms: (options.stopOnAlarms ?? []).map(alarmNameOf) });
  return {
    record: { ...record, bakeUntil: until },
    decision: decision('bake', { waitSeconds: bakeWaitSeconds(now, until) }),
  };
}

/**
 * "Check while baking": a pending cancel wins; an alarm in `ALARM` ends the run as a failed batch
 * does (`alarm-fired`, the alarm in its errors); else the bake goes on until its end, then the run
 * finishes (and succeeds).
 */
export async function bakeStep(kit: StepKit, input: BakeInput): Promise<DecisionOutput> {
  const { options, run, progress } = input;
  if (input.cancelRequested) return { events: [], progress, decision: decision('cancel') };
  const alarm = await readFiredAlarm(kit, options, kit.signal);
  if (alarm !== undefined) {
    const events = await recordAlarmStop(kit, run.runId, alarm, { asRunError: true });
    return {
      events,
      progress: { ...progress, errorCount: progress.errorCount + 1 },
      decision: decision('finish'),
    };
  }
  const now = kit.now();
  const until = (await kit.loadRun(run.runId)).bakeUntil ?? now;
  if (now >= until) return { events: [], progress, decision: decision('finish') };
  return { events: [], progress, decision: decision('bake', { waitSeconds: bakeWaitSeconds(now, until) }) };
}
