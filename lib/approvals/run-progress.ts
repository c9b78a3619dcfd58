/**
 * A run's progress as its live chat message shows it (one message per run, edited in place):
 * the job, who or what started the run, the plan (allocations, batches, window, health gate),
 * then batch k of n, restarted and failed so far, a health wait under way, an ETA from the batches
 * so far and the window left, with the run's Pause and Stop buttons. The steps record a
 * {@link RunProgress} at their points (lambdas/private/run-progress-middleware.ts); the notifier
 * turns it into the message (lib/approvals/run-thread.ts).
 */
import { formatGoDuration } from '../go/duration';
import { goQuote } from '../go/quote';
import { runStarter } from '../restart/run/starter';
import { plural } from '../restart/text';
import type { WorkflowState } from '../workflow/payloads';
import type { ChatMessage } from './message';
import { executionConsoleUrl } from './question-message';

/** What a run has done so far, recorded by a step. Plain JSON: it is stored as it is. */
export interface RunProgress {
  /** The run: its first execution's ARN (what owns the lock and the Pause / Stop buttons name). */
  readonly runId: string;
  /** The execution running it now. */
  readonly executionId: string;
  readonly jobId: string;
  readonly namespace: string;
  /** Who or what started the run, in words. */
  readonly startedBy: string;
  /** Unix ms when the run's first execution started. */
  readonly startedAt: number;
  readonly allocationCount: number;
  readonly batchCount: number;
  readonly batchSize: number;
  /** Batches finished. */
  readonly batchesDone: number;
  readonly restarted: number;
  readonly failed: number;
  /** The maintenance window's end (Unix ms), when the run has one. */
  readonly windowEnd?: number;
  /** `-wait-healthy`'s gate in words, when on. */
  readonly healthGate?: string;
  /** When (Unix ms) the batch now waiting for its allocations to be healthy started. */
  readonly waitingForHealthSince?: number;
  /** When the step recorded this (Unix ms). */
  readonly at: number;
}

/**
 * The progress a step's output state shows, at `now` (Unix ms); `undefined` before there is a plan
 * to show (a run refused its job's lock has none).
 */
export function runProgressOf(
  state: WorkflowState,
  now: number,
  waitingForHealth: boolean,
): RunProgress | undefined {
  const { plan, progress, options, run } = state;
  if (plan === null || progress === null || state.summary !== null) return undefined;
  const gate = options.waitHealthy;
  return {
    runId: run.runId,
    executionId: run.executionId,
    jobId: plan.jobId,
    namespace: plan.namespace,
    startedBy: runStarter(options, run.startedBy),
    startedAt: run.startedAt ?? now,
    allocationCount: plan.allocationCount,
    batchCount: plan.batchCount,
    batchSize: plan.batchSize,
    batchesDone: progress.nextBatch,
    restarted: progress.restarted,
    failed: progress.failed,
    ...(options.windowEnd === undefined ? {} : { windowEnd: options.windowEnd }),
    ...(gate === undefined
      ? {}
      : {
          healthGate: `healthy for ${formatGoDuration(gate.minHealthyTimeNs)} within ${formatGoDuration(gate.healthyDeadlineNs)}`,
        }),
    ...(waitingForHealth ? { waitingForHealthSince: state.batch?.startedAt ?? now } : {}),
    at: now,
  };
}

const minutes = (ms: number) => {
  const m = Math.max(0, Math.round(ms / 60_000));
  return m < 1 ? 'under a minute' : `about ${plural(m, 'minute', 'minutes')}`;
};

const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;

/** The lines of the plan and of where the run is. */
function progressLines(p: RunProgress): string[] {
  const lines = [
    `Job ${goQuote(p.jobId)} in namespace ${goQuote(p.namespace)}, started by ${p.startedBy}`,
    `Plan: ${plural(p.allocationCount, 'allocation', 'allocations')} in ${plural(p.batchCount, 'batch', 'batches')} of up to ${p.batchSize}` +
      `${p.healthGate === undefined ? '' : `, each batch ${p.healthGate}`}` +
      `${p.windowEnd === undefined ? '' : `, window until ${utc(p.windowEnd)}`}`,
  ];
  const done = Math.min(p.batchesDone, p.batchCount);
  lines.push(
    done === p.batchCount
      ? `All ${plural(p.batchCount, 'batch', 'batches')} done: ${p.restarted} restarted, ${p.failed} failed`
      : `Batch ${done + 1} of ${p.batchCount} next; so far ${p.restarted} restarted, ${p.failed} failed`,
  );
  if (p.waitingForHealthSince !== undefined)
    lines.push(
      `Batch ${done + 1} waits for its allocations to be healthy (batch started ${utc(p.waitingForHealthSince)})`,
    );
  // The ETA assumes the batches left take as long as those done took on average.
  if (done > 0 && done < p.batchCount) {
    const perBatch = (p.at - p.startedAt) / done;
    lines.push(
      `ETA ${utc(p.at + perBatch * (p.batchCount - done))} (${minutes(perBatch * (p.batchCount - done))} from the batches so far)`,
    );
  }
  if (p.windowEnd !== undefined) lines.push(`Window left: ${minutes(p.windowEnd - p.at)}`);
  return lines;
}

/**
 * The run's live message: while it runs, with its Pause / Stop buttons; once `ended` (the run-end
 * outcome's words), without them.
 */
export function liveRunMessage(p: RunProgress, ended?: string): ChatMessage {
  const url = executionConsoleUrl(p.executionId);
  return {
    title: `nomad-restart: restart of job ${goQuote(p.jobId)} ${ended ?? 'running'}`,
    lines: [...progressLines(p), `Updated ${utc(p.at)}`],
    ...(url === undefined ? {} : { link: { text: 'Open the execution in the Step Functions console', url } }),
    ...(ended === undefined ? { controls: { runId: p.runId, verbs: ['pause', 'stop'] as const } } : {}),
  };
}

/** What a live message shows, to tell a change worth an edit from one it shows already. */
export function progressFingerprint(p: RunProgress, ended?: string): string {
  return JSON.stringify([
    p.batchesDone,
    p.restarted,
    p.failed,
    p.waitingForHealthSince ?? null,
    ended ?? null,
  ]);
}
