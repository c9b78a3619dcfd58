/**
 * The summary of a run that ended without making one (aborted, timed out, a Fail state before
 * "Finish restart"): the job, window and schedule from the execution's input, the counts and
 * errors from the run's record in the plan store, the times from the execution.
 */
import { sampleErrors } from '../../restart/error-sample';
import { validateExecutionInput } from '../../restart/execution-input';
import type { RestartOptions } from '../../restart/options';
import {
  type RunOutcome,
  type RunSummary,
  type SkippedCounts,
  summarizeRun,
} from '../../restart/run-summary';
import { resolveWindow } from '../../restart/window';
import type { EndedExecution } from '../ended-execution';
import type { WorkflowState } from '../payloads';

/** The run's record as this reads it (the steps' `RunRecord` is one). */
export interface RunRecordView {
  readonly errors: readonly { readonly message: string }[];
  readonly stoppedOn?: string;
  readonly counts?: {
    readonly planned: number;
    readonly restarted: number;
    readonly failed: number;
    readonly skipped: SkippedCounts;
  };
}

/** What the input says about the run; a continued execution's input carries the whole state. */
interface InputFacts {
  readonly jobId: string;
  readonly namespace: string;
  readonly options?: RestartOptions;
  readonly state?: WorkflowState;
  readonly startedBy?: string;
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

function inputFacts(e: EndedExecution): InputFacts {
  let raw: unknown;
  try {
    raw = JSON.parse(e.input ?? 'null') as unknown;
  } catch {
    raw = null;
  }
  const fields = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const state = fields['continuation'] as WorkflowState | undefined;
  if (typeof state === 'object' && state !== null && typeof state.options === 'object') {
    const startedBy = state.run?.startedBy;
    return {
      jobId: state.plan?.jobId ?? state.options.job,
      namespace: state.plan?.namespace ?? state.options.namespace ?? 'default',
      options: state.options,
      state,
      ...(startedBy === undefined ? {} : { startedBy }),
    };
  }
  let options: RestartOptions | undefined;
  try {
    // The window and startedBefore as "Validate input" resolved them: a duration counts from the
    // execution's start.
    options = resolveWindow(validateExecutionInput(raw, e.startDate), e.startDate);
  } catch {
    // Input that never validated (InvalidInput): only what it names can be shown.
  }
  const startedBy = text(fields['startedBy']);
  return {
    jobId: options?.job ?? text(fields['job']) ?? '',
    namespace: options?.namespace ?? text(fields['namespace']) ?? 'default',
    ...(options === undefined ? {} : { options }),
    ...(startedBy === undefined ? {} : { startedBy }),
  };
}

/** Who started the run, as its input says (`startedBy`). */
export function startedByOf(e: EndedExecution): string | undefined {
  return inputFacts(e).startedBy;
}

/** The summary of the run of `e`, ended as `outcome`, from its input and `record`. */
export function runFactsOf(
  e: EndedExecution,
  outcome: RunOutcome,
  record: RunRecordView | undefined,
): RunSummary {
  const { jobId, namespace, options, state } = inputFacts(e);
  const counts = record?.counts;
  const progress = state?.progress;
  const errors = sampleErrors((record?.errors ?? []).map((error) => error.message));
  return summarizeRun({
    outcome,
    jobId,
    namespace,
    reschedule: options?.reschedule ?? false,
    planned: counts?.planned ?? state?.plan?.allocationCount ?? 0,
    restarted: counts?.restarted ?? progress?.restarted ?? 0,
    failed: counts?.failed ?? progress?.failed ?? 0,
    skipped: counts?.skipped ?? state?.plan?.skipped ?? {},
    startedAt: state === undefined ? e.startDate : (state.run.startedAt ?? null),
    finishedAt: e.stopDate,
    errors: errors.errors,
    omittedErrors: errors.omitted,
    windowEnd: options?.windowEnd ?? null,
    windowReached: record?.stoppedOn === 'window-end',
    lockedBy: null,
    scheduleName: options?.scheduleName ?? null,
    scheduledTime: options?.scheduledTime ?? null,
    ...(options?.fleet === undefined ? {} : { fleet: options.fleet }),
  });
}
