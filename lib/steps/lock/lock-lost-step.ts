/**
 * A run that lost the job's lock, met at the safe point before a batch: another run may be
 * restarting the job now, so this one restarts nothing more and ends with the loss among its
 * errors (exit 1 at a terminal, a failed execution on AWS), never as a success with work left.
 */
import { lockLostText } from '../../restart/lock-lines';
import type { GuardOutput, PlannedStepInput } from '../../workflow/restart-steps';
import type { StepKit } from '../kit/step-kit';

/**
 * At "Check deployments", when the run lost the job's lock (`reason`, from `JobLockLostError`):
 * records it as a run error (Finish then reports `failed`, Nomad's "finished with errors") and
 * emits `lock-lost`. Makes no Nomad call; the graph finishes without another batch.
 */
export async function stopForLostLockStep(
  kit: StepKit,
  { run, plan, progress }: PlannedStepInput,
  reason: string,
): Promise<GuardOutput> {
  const { events, emit } = kit.recorder();
  const left = Math.max(0, plan.allocationCount - progress.restarted - progress.failed);
  const stopped = await kit.stopWithError(
    run.runId,
    { message: lockLostText(reason, left), unrecoverable: false },
    progress,
  );
  emit({ type: 'lock-lost', time: kit.now(), jobId: plan.jobId, reason, left });
  return { ...stopped, events };
}
