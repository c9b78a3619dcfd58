/**
 * The state a scheduled run ends with when another run holds the job's lock: its summary (the
 * execution output, outcome `skipped-job-locked`, naming the holder) and the line saying so.
 */
import { summarizeRun } from '../../lib/restart/run-summary';
import type { WorkflowState } from '../../lib/workflow/payloads';
import { requirePlanned } from './decode-state';

/** `state` with the skipped run's summary and event; "Locked by another run?" routes on the summary. */
export function skippedForLock(state: WorkflowState, holder: string, now: number): WorkflowState {
  const { plan } = requirePlanned(state);
  const { options } = state;
  return {
    ...state,
    summary: summarizeRun({
      outcome: 'skipped-job-locked',
      jobId: plan.jobId,
      namespace: plan.namespace,
      reschedule: options.reschedule,
      planned: plan.allocationCount,
      restarted: 0,
      failed: 0,
      skipped: plan.skipped ?? {},
      startedAt: state.run.startedAt ?? null,
      finishedAt: now,
      errors: [],
      omittedErrors: 0,
      windowEnd: options.windowEnd ?? null,
      windowReached: false,
      lockedBy: holder,
      scheduleName: options.scheduleName ?? null,
      scheduledTime: options.scheduledTime ?? null,
    }),
    events: [{ type: 'skipped-job-locked', time: now, jobId: plan.jobId, holder }],
  };
}
