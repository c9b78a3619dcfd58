/**
 * "Decide": counts the settled batch into the run (once, even when retried) and chooses what
 * comes next by Nomad's rules: finish, stop on errors, ask, wait, or the next batch.
 */
import { decideAfterBatch } from '../../restart/decide';
import { sampleErrors } from '../../restart/error-sample';
import { formatCount, type RestartOptions } from '../../restart/options';
import type { RestartPlan } from '../../restart/plan';
import { proceedQuestion } from '../../restart/questions';
import { formatErrorList } from '../../restart/text';
import { planKeys } from '../../stores/plan-keys';
import type { Progress } from '../../workflow/payloads';
import type { DecideInput, DecisionOutput } from '../../workflow/restart-steps';
import { startBake } from '../alarms/bake-step';
import { type BatchResult, batchWaitOf, decision, pendingQuestion, type StepKit } from '../kit/step-kit';

export async function decideStep(
  kit: StepKit,
  { options, run, plan: ref, progress, batch, cancelRequested }: DecideInput,
): Promise<DecisionOutput> {
  const { planStore, now } = kit;
  const { events, emit } = kit.recorder();
  if (cancelRequested) return { events, progress, decision: decision('cancel') };
  const plan = await kit.loadPlan(ref.planKey);
  const result = (await planStore.get(planKeys.batchResult(run.runId, batch.index))) as BatchResult;
  let record = await kit.loadRun(run.runId);
  // A retried Decide must not count the batch twice.
  const counted = record.countedBatches.includes(batch.index);
  const next: Progress = counted
    ? progress
    : {
        ...progress,
        nextBatch: batch.index + 1,
        batchesThisExecution: progress.batchesThisExecution + 1,
        restarted: progress.restarted + result.restarted,
        failed: progress.failed + result.failed,
        errorCount: progress.errorCount + result.errors.length,
      };
  if (!counted) {
    record = {
      ...record,
      errors: [...record.errors, ...result.errors],
      countedBatches: [...record.countedBatches, batch.index],
      counts: {
        planned: ref.allocationCount,
        restarted: next.restarted,
        failed: next.failed,
        skipped: ref.skipped ?? {},
      },
    };
  }
  const choice = decideAfterBatch({
    isLastBatch: batch.index >= ref.batchCount - 1,
    batchErrors: result.errors,
    onError: options.onError,
    yes: options.yes,
    batchWait: batchWaitOf(next),
    ...(plan.maxErrors === undefined ? {} : { maxErrors: plan.maxErrors }),
    failedAllocations: next.failed,
  });
  let out = decision('batch');
  // A -stop-on-alarm alarm fired during this batch's health wait: no further batch, no bake.
  if (record.stoppedOn === 'alarm') out = decision('finish');
  else if (choice.action === 'finish') {
    const bake = startBake(options, record, now(), emit);
    if (bake !== undefined) record = bake.record;
    out = bake?.decision ?? decision('finish');
  } else if (choice.action === 'stop') {
    record = { ...record, stoppedOn: choice.reason };
    emit(
      choice.reason === 'max-errors'
        ? {
            type: 'max-errors-exceeded',
            time: now(),
            failed: next.failed,
            maxErrors: maxErrorsText(options, plan),
          }
        : { type: 'stopping', time: now(), reason: choice.reason },
    );
    out = decision('finish');
  } else if (choice.action === 'ask') {
    const messages = result.errors.map((e) => e.message);
    const sample = sampleErrors(messages);
    if (messages.length > 0) {
      const time = now();
      emit(
        { type: 'batch-errors', time, errors: messages },
        { type: 'batch-errors', time, errors: sample.errors, omittedErrors: sample.omitted },
      );
    }
    const question = proceedQuestion({ outcome: choice.outcome, batchWaitAsk: choice.batchWaitAsk });
    out = decision('ask', {
      question: pendingQuestion(
        question,
        messages.length > 0 ? formatErrorList(sample.errors, 0, sample.omitted) : '',
        now(),
      ),
    });
  } else if (choice.action === 'wait') {
    emit({ type: 'waiting', time: now(), waitMs: choice.ns / 1e6 });
    out = decision('wait', { waitSeconds: Math.ceil(choice.ns / 1e9) });
  }
  await planStore.put(planKeys.runRecord(run.runId), record);
  return { events, progress: next, decision: out };
}

/** `-max-errors` as the user wrote it, or the count it resolved to. */
function maxErrorsText(options: RestartOptions, plan: RestartPlan): string {
  return options.maxErrors === undefined ? String(plan.maxErrors) : formatCount(options.maxErrors);
}
