/**
 * "Finish restart": the run's last line and its summary (outcome, counts, Nomad's error list),
 * the execution output a person reads in the console.
 */
import { sampleErrors } from '../restart/error-sample';
import { formatErrorList } from '../restart/text';
import type { FinishInput, FinishOutput } from '../workflow/steps';
import { EMPTY_RUN, type StepKit } from './step-kit';

export async function finishStep(kit: StepKit, { run, plan, progress }: FinishInput): Promise<FinishOutput> {
  const { events, emit } = kit.recorder();
  const record = plan === null ? EMPTY_RUN : await kit.loadRun(run.runId);
  const messages = record.errors.map((e) => e.message);
  const canceled = progress?.canceled ?? false;
  // "No allocations to restart" is Nomad's whole output for an empty plan (spec §2.2 step 11).
  const nothingPlanned = plan !== null && plan.planKey === '' && messages.length === 0;
  const sample = sampleErrors(messages);
  if (!nothingPlanned) {
    const time = kit.now();
    emit(
      { type: 'finished', time, errors: messages, canceled },
      { type: 'finished', time, errors: sample.errors, canceled, omittedErrors: sample.omitted },
    );
  }
  const outcome =
    record.stoppedOn === 'unrecoverable-error'
      ? 'unrecoverable'
      : messages.length > 0
        ? 'failed'
        : canceled
          ? 'canceled'
          : 'succeeded';
  return {
    events,
    summary: {
      outcome,
      jobId: plan?.jobId ?? '',
      namespace: plan?.namespace ?? '',
      restarted: progress?.restarted ?? 0,
      failed: progress?.failed ?? 0,
      errorText: messages.length > 0 ? formatErrorList(sample.errors, 0, sample.omitted) : '',
    },
  };
}
