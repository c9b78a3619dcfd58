/**
 * Run control's part of the safe point before a batch (docs/run-control.md): a request recorded
 * for the run (lib/control/requests.ts; the engine's lock or the job's request variable in Nomad)
 * is acted on here, after a confirmed interrupt and before the window's end. It is read at most
 * once a second (control-read.ts), the job's and the fleet's alike. `stop` ends the run as a "no"
 * does; `pause` parks the pause question on the ask step; `resume` with nothing parked is only
 * forgotten. Every request acted on is cleared (a newer one is kept for the next one).
 */
import type { ControlRequest } from '../../control/requests';
import { describeRequester } from '../../control/requests';
import { pauseQuestion } from '../../restart/questions';
import { JobLockLostError } from '../../stores/errors';
import { planKeys } from '../../stores/plan-keys';
import type { RunRef } from '../../workflow/payloads';
import type { PlannedStepInput } from '../../workflow/restart-steps';
import { decision, pendingQuestion, type StepKit } from '../kit/step-kit';
import { controlReadAt, controlReadDue, controlReadNext } from './control-read';
import { fleetControlRequest } from './fleet-control-step';
import type { GuardPass, GuardStop } from './guard-stop';
import { type JobLocks, lockKeyOf } from './job-locks';
import { stopForLostLockStep } from './lock-lost-step';
import { refreshLockStep } from './refresh-lock-step';

/**
 * The run-control request for the run, acted on when it is due for a read; the run going on
 * comes back with the read's time when it read.
 */
export async function controlStep(
  kit: StepKit,
  locks: JobLocks,
  input: PlannedStepInput,
): Promise<GuardStop | GuardPass> {
  const at = kit.now();
  if (!controlReadDue(input.run, at)) return { run: input.run };
  const key = lockKeyOf(input.plan);
  const runId = input.run.runId;
  const run = controlReadAt(input.run, at);
  const request =
    (await locks.lock.controlRequest(key, runId, { atSafePoint: true })) ??
    (await fleetControlRequest(locks.lock, input.options));
  if (request === undefined) return { run };
  switch (request.verb) {
    case 'resume':
      // Nothing is parked at a safe point: the run is not paused, and goes on.
      await locks.lock.clearControlRequest(key, runId, request);
      return { run };
    case 'stop':
      await locks.lock.clearControlRequest(key, runId, request);
      return stopStep(kit, input, request);
    case 'pause':
      return pauseStep(kit, locks, input, request);
  }
}

/**
 * Ends the run here as a "no" to the proceed question does (progress `canceled`, Finish's summary
 * `canceled`, the lock released on the way out), naming who stopped it in the run's record.
 */
async function stopStep(kit: StepKit, input: PlannedStepInput, request: ControlRequest): Promise<GuardStop> {
  const { events, emit } = kit.recorder();
  const { run, progress } = input;
  const record = await kit.loadRun(run.runId);
  await kit.planStore.put(planKeys.runRecord(run.runId), {
    ...record,
    stoppedBy: describeRequester(request),
  });
  emit({ type: 'stopped', time: kit.now(), request });
  // Then Nomad's own line after a "no" (`Job restart canceled`), which scripts may look for.
  emit({ type: 'canceled', time: kit.now() });
  return {
    guard: { blocked: false, canceled: false, stopped: true },
    events,
    progress: { ...progress, canceled: true },
  };
}

/**
 * Parks the pause question through the ask step. The leases are renewed first when they need it,
 * as "Decide" renews them before any question: nothing renews them while the question waits for its answer. The pause
 * request becomes the question: `resume`, `stop` or a yes/no answer it. In Nomad it is left as
 * the parked marker, so that another terminal sees the run paused (`nomad-restart resume <job>`
 * refuses a run that is not); this safe point deletes the marker when the run comes back.
 */
async function pauseStep(
  kit: StepKit,
  locks: JobLocks,
  input: PlannedStepInput,
  request: ControlRequest,
): Promise<GuardStop> {
  let run: RunRef;
  try {
    run = await refreshLockStep(kit.now, locks, input, 'longest');
  } catch (err) {
    if (!(err instanceof JobLockLostError)) throw err;
    const { events, progress } = await stopForLostLockStep(kit, input, err.message);
    return { guard: { blocked: true, canceled: false, windowEnded: false }, events, progress };
  }
  await locks.lock.parkControlRequest(lockKeyOf(input.plan), input.run.runId, request);
  const { events, emit } = kit.recorder();
  emit({ type: 'paused', time: kit.now(), request });
  const { plan, progress } = input;
  const summary =
    `Paused before batch ${progress.nextBatch + 1} of ${plan.batchCount}: ` +
    `${progress.restarted} restarted, ${progress.failed} failed so far`;
  return {
    guard: { blocked: false, canceled: false, paused: true },
    // Back from the pause, the next safe point reads at once: the parked marker goes, and a
    // request recorded while the question was open is acted on before any batch.
    run: controlReadNext(run),
    events,
    decision: decision('ask', { question: pendingQuestion(pauseQuestion(request), summary, kit.now()) }),
  };
}
