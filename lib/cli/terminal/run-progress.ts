/**
 * Where a run at this terminal stands, read from what the local engine already reports: each
 * state's output (the plan's job, namespace and batch count; the counters "Decide" keeps) and the
 * progress events (what the batch is waiting for). The status line draws it and `-output json`
 * adds it to each event; neither asks Nomad anything more.
 */
import type { ProgressEvent } from '../../restart/events';
import type { WorkflowState } from '../../workflow/payloads';

/** What a batch is waiting for, since when (Unix ms). */
export type BatchWaitKind = 'replacement' | 'health' | 'next-batch' | 'resume';

/** A snapshot of the run, as far as this terminal knows it. */
export interface RunSnapshot {
  /** The job and its namespace once the plan resolved them (a prefix given is resolved). */
  readonly job?: string;
  readonly namespace?: string;
  /** 1-based number of the batch under way, or next to start; 0 before the plan. */
  readonly batch: number;
  /** Batches in the plan; 0 before the plan (or when there is nothing to restart). */
  readonly batches: number;
  /** Allocations restarted and failed so far, as "Decide" counted them after each batch. */
  readonly restarted: number;
  readonly failed: number;
  /** What the run waits for, since when; `until` when the wait has a known end. */
  readonly waiting?: { readonly kind: BatchWaitKind; readonly since: number; readonly until?: number };
  /** Batches done, and when the first started (Unix ms), for an ETA. */
  readonly batchesDone: number;
  readonly firstBatchAt?: number;
  /** The maintenance window's end (Unix ms), when the run has one. */
  readonly windowEnd?: number;
}

/** The fields `-output json` adds to each one-job event. */
export interface EventContext {
  readonly job: string;
  readonly namespace: string;
  readonly batch: number;
  readonly batches: number;
  readonly totals: { readonly restarted: number; readonly failed: number };
}

/** Follows one run; fed by the engine's state exits and progress events. */
export class RunProgress {
  private snap: RunSnapshot = { batch: 0, batches: 0, restarted: 0, failed: 0, batchesDone: 0 };

  /** The run as last seen. */
  public snapshot(): RunSnapshot {
    return this.snap;
  }

  /** A state's output: the plan and the counters. */
  public stateExited(output: unknown): void {
    const state = output as Partial<WorkflowState> | null;
    if (state === null || typeof state !== 'object') return;
    const { plan, progress, options } = state;
    let next: RunSnapshot = this.snap;
    if (options?.windowEnd !== undefined) next = { ...next, windowEnd: options.windowEnd };
    if (plan) next = { ...next, job: plan.jobId, namespace: plan.namespace, batches: plan.batchCount };
    if (progress && plan) {
      const done = Math.min(progress.nextBatch, plan.batchCount);
      const ended = done > next.batchesDone;
      next = {
        ...next,
        batch: Math.min(progress.nextBatch + 1, plan.batchCount),
        restarted: progress.restarted,
        failed: progress.failed,
        batchesDone: done,
      };
      // A batch that ended waits for nothing more, but the batch wait its own step announced.
      if (ended && next.waiting?.kind !== 'next-batch') next = withoutWaiting(next);
    }
    this.snap = next;
  }

  /** A progress event: what the batch under way is waiting for. */
  public event(event: ProgressEvent): void {
    const snap = this.snap;
    switch (event.type) {
      case 'batch-started':
      case 'allocation-restarting':
        // The first restart of a batch ends the wait before it.
        this.snap = {
          ...withoutWaiting(snap),
          ...(snap.firstBatchAt === undefined ? { firstBatchAt: event.time } : {}),
        };
        return;
      case 'allocation-replaced':
        if (snap.waiting?.kind !== 'replacement') this.wait('replacement', event.time);
        return;
      case 'health-waiting':
        this.wait('health', event.time);
        return;
      case 'waiting':
        this.wait('next-batch', event.time, event.time + event.waitMs);
        return;
      case 'paused':
        this.wait('resume', event.time);
        return;
      case 'resumed':
      case 'finished':
        this.snap = withoutWaiting(snap);
        return;
      default:
        return;
    }
  }

  /** The fields `-output json` adds to an event, once the plan named the job. */
  public eventContext(): EventContext | undefined {
    const { job, namespace, batch, batches, restarted, failed } = this.snap;
    if (job === undefined || namespace === undefined) return undefined;
    return { job, namespace, batch, batches, totals: { restarted, failed } };
  }

  private wait(kind: BatchWaitKind, since: number, until?: number): void {
    this.snap = { ...this.snap, waiting: until === undefined ? { kind, since } : { kind, since, until } };
  }
}

function withoutWaiting(snap: RunSnapshot): RunSnapshot {
  if (snap.waiting === undefined) return snap;
  const { waiting: _ended, ...rest } = snap;
  return rest;
}
