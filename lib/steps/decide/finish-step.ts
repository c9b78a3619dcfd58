/**
 * "Finish restart": the run's last line and its summary (outcome, counts, Nomad's error list,
 * window, duration), the execution output a person reads in the console.
 */
import { sampleErrors } from '../../restart/error-sample';
import { type RunOutcome, summarizeRun } from '../../restart/run-summary';
import type { FinishInput, FinishOutput } from '../../workflow/restart-steps';
import { readFreshness } from '../kit/freshness-read';
import { recordRunEnded } from '../kit/job-history';
import { EMPTY_RUN, type RunRecord, type StepKit } from '../kit/step-kit';
import { carryOverKey, clearCarryOver } from '../plan/carry-over';

export async function finishStep(
  kit: StepKit,
  { options, run, plan, progress }: FinishInput,
): Promise<FinishOutput> {
  const { events, emit } = kit.recorder();
  const record = plan === null ? EMPTY_RUN : await kit.loadRun(run.runId);
  const messages = record.errors.map((e) => e.message);
  const canceled = progress?.canceled ?? false;
  // "No allocations to restart" is Nomad's whole output for an empty plan (`command/job_restart.go` `Run`).
  const nothingPlanned = plan !== null && plan.planKey === '' && messages.length === 0;
  const sample = sampleErrors(messages);
  const time = kit.now();
  if (!nothingPlanned) {
    // A run stopped at its window's end printed why; like a "no", it ends without the success
    // line (but with Nomad's "finished with errors" when it has errors).
    const stopped = canceled || (record.stoppedOn === 'window-end' && messages.length === 0);
    emit(
      { type: 'finished', time, errors: messages, canceled: stopped },
      { type: 'finished', time, errors: sample.errors, canceled: stopped, omittedErrors: sample.omitted },
    );
  }
  // After Nomad's last line: what the job's allocations show now, re-read (`startedBefore` only).
  const freshness =
    plan === null
      ? undefined
      : await readFreshness(kit, options, plan, {
          reachedBatches: progress?.nextBatch ?? 0,
          failed: new Set(
            record.errors.flatMap((e) => (e.allocationId === undefined ? [] : [e.allocationId])),
          ),
          locked: false,
        });
  if (freshness !== undefined) emit({ type: 'freshness', time: kit.now(), report: freshness });
  const outcome = outcomeOf(record, messages.length, canceled);
  // A maintenance carried across windows is over once a run of it succeeds.
  const carryKey = carryOverKey(options);
  if (carryKey !== undefined && outcome === 'succeeded') await clearCarryOver(kit, carryKey, run.runId);
  const stoppedBy = outcome === 'canceled' ? record.stoppedBy : undefined;
  // The job's history: the run's final record, over its provisional one (none before a plan).
  if (plan !== null)
    await recordRunEnded(
      kit,
      { options, run, plan, progress },
      { outcome, endedAt: time, errors: messages, stoppedBy },
      emit,
    );
  return {
    events,
    summary: summarizeRun({
      outcome,
      jobId: plan?.jobId ?? options.job,
      namespace: plan?.namespace ?? options.namespace ?? 'default',
      reschedule: options.reschedule,
      planned: plan?.allocationCount ?? 0,
      restarted: progress?.restarted ?? 0,
      failed: progress?.failed ?? 0,
      skipped: plan?.skipped ?? {},
      startedAt: run.startedAt ?? null,
      finishedAt: time,
      errors: sample.errors,
      omittedErrors: sample.omitted,
      windowEnd: options.windowEnd ?? null,
      windowReached: record.stoppedOn === 'window-end',
      lockedBy: null,
      stoppedBy,
      scheduleName: options.scheduleName ?? null,
      scheduledTime: options.scheduledTime ?? null,
      ...(options.fleet === undefined ? {} : { fleet: options.fleet }),
      ...(freshness === undefined ? {} : { freshness }),
    }),
  };
}

/** Errors decide first (Nomad's exit code), then why the run stopped early, if it did. */
function outcomeOf(record: RunRecord, errorCount: number, canceled: boolean): RunOutcome {
  if (record.stoppedOn === 'unrecoverable-error') return 'unrecoverable';
  if (errorCount > 0) return 'failed';
  if (record.stoppedOn === 'window-end') return 'stopped-at-window-end';
  return canceled ? 'canceled' : 'succeeded';
}
