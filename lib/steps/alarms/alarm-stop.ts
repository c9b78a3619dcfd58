/**
 * `-stop-on-alarm` at the safe point before a batch: a watched CloudWatch alarm in `ALARM` stops
 * the run there as a failed batch does (no further batch; the alarm's name, reason and time in the
 * run's errors and summary; exit 1 / `RestartFailed`). The guard calls {@link stopOnAlarmStep}
 * after the window check, before the lease is renewed.
 */
import { AlarmAccessError } from '../../alarms/errors';
import { alarmFiredError, firedAlarm } from '../../restart/alarms';
import type { FiredAlarm, ProgressEvent } from '../../restart/events';
import type { RestartOptions } from '../../restart/options';
import { planKeys } from '../../stores/plan-keys';
import type { GuardState, Progress } from '../../workflow/payloads';
import type { PlannedStepInput } from '../../workflow/restart-steps';
import type { StepKit } from '../kit/step-kit';

/** Whether the run watches alarms (`-stop-on-alarm`). */
export const watchesAlarms = (
  options: RestartOptions,
): options is RestartOptions & { stopOnAlarms: string[] } => (options.stopOnAlarms ?? []).length > 0;

/**
 * The run's alarm in `ALARM` now, if any (`undefined` without `-stop-on-alarm`).
 * @throws AlarmNotFoundError for an alarm CloudWatch does not hold; the SDK's errors as they come
 */
export async function readFiredAlarm(
  kit: Pick<StepKit, 'alarms'>,
  options: RestartOptions,
  signal?: AbortSignal,
): Promise<FiredAlarm | undefined> {
  if (!watchesAlarms(options)) return undefined;
  if (kit.alarms === undefined) {
    // Never skipped silently: a run told to watch alarms must not go on unwatched.
    throw new AlarmAccessError('-stop-on-alarm is set but no CloudWatch client is configured');
  }
  return firedAlarm(kit.alarms, options.stopOnAlarms, signal);
}

/**
 * Records that the run stops on `alarm` (Decide then finishes instead of going on) and emits
 * `alarm-fired`. The alarm's error goes to the run's errors here when `asRunError` (at the guard);
 * a health wait's batch carries it in its result instead, so Decide counts it with the batch.
 */
export async function recordAlarmStop(
  kit: StepKit,
  runId: string,
  alarm: FiredAlarm,
  { asRunError }: { asRunError: boolean },
): Promise<ProgressEvent[]> {
  const { events, emit } = kit.recorder();
  const record = await kit.loadRun(runId);
  // A retried step finds its first attempt's stop recorded: the alarm is one error, not two.
  const recorded = record.stoppedOn === 'alarm';
  const errors = asRunError && !recorded ? [...record.errors, alarmFiredError(alarm)] : record.errors;
  await kit.planStore.put(planKeys.runRecord(runId), { ...record, errors, stoppedOn: 'alarm' });
  emit({ type: 'alarm-fired', time: kit.now(), alarm });
  return events;
}

/** How the guard stops the run on an alarm (its `GuardStop`, lib/steps/lock/guard-step.ts). */
export interface AlarmStop {
  readonly guard: GuardState;
  readonly events: ProgressEvent[];
  readonly progress: Progress;
}

/** The guard's alarm check before a batch; `undefined` when the run goes on. */
export async function stopOnAlarmStep(kit: StepKit, input: PlannedStepInput): Promise<AlarmStop | undefined> {
  const alarm = await readFiredAlarm(kit, input.options, kit.signal);
  if (alarm === undefined) return undefined;
  const events = await recordAlarmStop(kit, input.run.runId, alarm, { asRunError: true });
  const { progress } = input;
  return {
    guard: { blocked: true, canceled: false, windowEnded: false, alarmFired: true },
    events,
    progress: { ...progress, errorCount: progress.errorCount + 1 },
  };
}
