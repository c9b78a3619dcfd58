/**
 * The lock's part of the safe point before a batch ("Check deployments", before its deployment
 * guard): a pending cancel request wins (no Nomad call), then a run-control request (stop, pause:
 * control-step.ts; read at most once a second, control-read.ts), then the maintenance window's end (no batch starts after it), then the run's
 * leases are renewed when less than half is left (lease-renewal.ts), and a run that lost the job
 * stops there, failed, restarting nothing more.
 */
import { windowHasEnded } from '../../restart/window';
import { JobLockLostError } from '../../stores/errors';
import type { PlannedStepInput } from '../../workflow/restart-steps';
import { stopOnAlarmStep } from '../alarms/alarm-stop';
import { stopAtWindowEndStep } from '../batch/window-end-step';
import type { StepKit } from '../kit/step-kit';
import { controlStep } from './control-step';
import type { GuardPass, GuardStop } from './guard-stop';
import { type JobLocks, lockKeyOf } from './job-locks';
import { stopForLostLockStep } from './lock-lost-step';
import { refreshLockStep } from './refresh-lock-step';

export type { GuardPass, GuardStop } from './guard-stop';

/** Whether the safe point stopped the run. */
export const stopped = (out: GuardStop | GuardPass): out is GuardStop => 'guard' in out;

/** The lock's checks at the safe point before a batch: a stop, or the run going on. */
export async function guardStep(
  kit: StepKit,
  locks: JobLocks,
  input: PlannedStepInput,
): Promise<GuardStop | GuardPass> {
  const { run, plan } = input;
  if (await locks.lock.isCancelRequested(lockKeyOf(plan), run.runId)) {
    return { guard: { blocked: false, canceled: true }, events: [] };
  }
  const controlled = await controlStep(kit, locks, input);
  if (stopped(controlled)) return controlled;
  // The run as the state carries it on: with the time of its read when it read its request.
  const going = { ...input, run: controlled.run };
  if (windowHasEnded(input.options, kit.now())) {
    const { events } = await stopAtWindowEndStep(kit, input);
    return { guard: { blocked: false, canceled: false, windowEnded: true }, events };
  }
  // A watched CloudWatch alarm in ALARM stops the run as a failed batch does (lib/steps/alarms).
  const alarm = await stopOnAlarmStep(kit, input);
  if (alarm !== undefined) return alarm;
  try {
    return { run: await refreshLockStep(kit.now, locks, going, 'none') };
  } catch (err) {
    if (!(err instanceof JobLockLostError)) throw err;
    const { events, progress } = await stopForLostLockStep(kit, input, err.message);
    return { guard: { blocked: true, canceled: false, windowEnded: false }, events, progress };
  }
}
