/**
 * The wait for a `-reschedule` batch's replacements: blocking queries on the job's allocations until each
 * stopped allocation's replacement runs, fails or times out, returning a cursor before the Lambda's deadline.
 */

import { formatGoDuration } from '../../go/duration';
import type { NomadClient } from '../../nomad/client';
import { MAX_BLOCKING_HOLD_MS, type QueryResult } from '../../nomad/query';
import type { AllocListStub, Evaluation } from '../../nomad/types';
import {
  AllocationStepError,
  PlacementFailureError,
  ReplacementTimeoutError,
} from '../../restart/allocation-errors';
import type { EmitProgress } from '../../restart/events';
import { displayId } from '../../restart/ids';
import type { RestartOptions } from '../../restart/options';
import type { RestartPlan } from '../../restart/plan';
import { replacementCause } from '../../restart/replacement-cause';
import { AllocationVanishedError } from '../kit/errors';
import { readWatchedAllocations } from '../kit/job-allocations-read';
import { type AllocationOutcome, failedOutcome } from '../kit/outcomes';
import {
  delay,
  RETURN_MARGIN_MS,
  type Settled,
  type Sleep,
  STALL_BACKOFF_MS,
  settle,
} from '../kit/watch-timing';
import { planBatch } from '../plan/plan';
import type { AwaitCursor, WaitingAllocation } from './await-cursor';
import { STILL_WAITING_INTERVAL_MS } from './await-cursor';

/** Dependencies of {@link awaitBatch}. */
export interface AwaitBatchDeps {
  readonly emit: EmitProgress;
  /** Unix ms. */
  readonly now: () => number;
  /** Waits on `now`'s clock. @default delay (real timers, for `Date.now`) */
  readonly sleep?: Sleep | undefined;
  /** Aborting returns the cursor at once (`done: false`); nothing is lost. */
  readonly signal?: AbortSignal | undefined;
  /** Unix ms by which the call must have returned (a Lambda's time slice). @default - no limit */
  readonly deadlineMs?: number | undefined;
  /** @default STILL_WAITING_INTERVAL_MS (Nomad's 60 s) */
  readonly stillWaitingIntervalMs?: number | undefined;
}

/** The result of one watch slice. */
export interface AwaitBatchResult {
  /** Every allocation of the batch is settled. */
  readonly done: boolean;
  /** Pass back to continue the watch when not done. */
  readonly cursor: AwaitCursor;
  /** One outcome per planned allocation, in plan order; still-waiting ones are `stopped`. */
  readonly outcomes: AllocationOutcome[];
}

type Wake =
  | { kind: 'allocations'; result: Settled<QueryResult<AllocListStub[]>>; index: number }
  | { kind: 'evaluations'; result: Settled<QueryResult<Evaluation[]>>; index: number }
  | { kind: 'timer' }
  | { kind: 'aborted' };

/**
 * Watches the replacements of one `-reschedule` batch (Nomad's `command/job_restart.go`
 * `monitorReplacementAlloc`) with ONE watch per batch instead of Nomad's two per allocation:
 *
 * - a blocking read of the job's allocations (`GET /v1/job/:id/allocations?index=N`, or for
 *   a large job the filtered list without task states, see `job-allocations-read.ts`) follows
 *   every stopped allocation's `NextAllocation` chain (any length) until a replacement is seen
 *   `running`;
 * - only while some watched allocation is stopped on the server with no replacement (the
 *   only state in which a placement can have failed), a blocking
 *   `GET /v1/job/:id/evaluations?index=N` looks for a `blocked` evaluation created at or
 *   after that allocation's stop index with `FailedTGAllocs[group]`: an unrecoverable
 *   placement failure.
 *
 * Emits `allocation-replaced`, `allocation-status` (intermediate ones with `-verbose`, the
 * final `running` always) and `still-waiting` every interval per waiting allocation.
 * `-replacement-timeout` turns an endless wait into a recoverable error. Returns early,
 * with a cursor to resume from, when `deadlineMs` nears or `signal` aborts.
 */
export async function awaitBatch(
  client: NomadClient,
  plan: RestartPlan,
  batchIndex: number,
  cursor: AwaitCursor,
  options: RestartOptions,
  deps: AwaitBatchDeps,
): Promise<AwaitBatchResult> {
  const watch = new BatchWatch(plan, cursor, options, deps);
  const controller = new AbortController();
  const onAbort = (): void => controller.abort();
  deps.signal?.addEventListener('abort', onAbort, { once: true });
  const aborted = new Promise<Wake>((resolve) => {
    controller.signal.addEventListener('abort', () => resolve({ kind: 'aborted' }), { once: true });
  });
  if (deps.signal?.aborted) controller.abort();

  const query = {
    ...(plan.job.namespace === undefined ? {} : { namespace: plan.job.namespace }),
    signal: controller.signal,
  };
  let allocations: Promise<Wake> | undefined;
  let evaluations: Promise<Wake> | undefined;
  let allocationsNotBefore = 0;
  let evaluationsNotBefore = 0;
  try {
    while (watch.waiting.length > 0 && !controller.signal.aborted) {
      const now = deps.now();
      watch.tick(now);
      const returnBy =
        deps.deadlineMs === undefined ? Number.POSITIVE_INFINITY : deps.deadlineMs - RETURN_MARGIN_MS;
      if (watch.waiting.length === 0 || now >= returnBy) {
        break;
      }
      const waitMs = Math.max(1, Math.min(MAX_BLOCKING_HOLD_MS, returnBy - now));
      if (allocations === undefined && now >= allocationsNotBefore) {
        const index = watch.allocationsIndex;
        allocations = settle(
          readWatchedAllocations(client, plan, { ...query, index, ...(index > 0 ? { waitMs } : {}) }),
        ).then((result) => ({ kind: 'allocations', result, index }));
      }
      if (evaluations === undefined && watch.anyStuck() && now >= evaluationsNotBefore) {
        const index = watch.evaluationsIndex;
        evaluations = settle(
          client.jobs().evaluations(plan.job.id, { ...query, index, ...(index > 0 ? { waitMs } : {}) }),
        ).then((result) => ({ kind: 'evaluations', result, index }));
      }
      const wakeAt = Math.min(
        watch.nextTimerAt(),
        returnBy,
        allocations === undefined ? allocationsNotBefore : Number.POSITIVE_INFINITY,
        evaluations === undefined && watch.anyStuck() ? evaluationsNotBefore : Number.POSITIVE_INFINITY,
      );
      const timerSignal = new AbortController();
      const timer = (deps.sleep ?? delay)(wakeAt - now, timerSignal.signal).then(
        (): Wake => ({ kind: 'timer' }),
      );
      const wake = await Promise.race(
        [allocations, evaluations, timer, aborted].filter((p) => p !== undefined),
      );
      timerSignal.abort();

      if (wake.kind === 'allocations') {
        allocations = undefined;
        if (wake.result.ok) {
          if (wake.result.value.index <= wake.index) allocationsNotBefore = deps.now() + STALL_BACKOFF_MS;
          watch.onAllocations(wake.result.value.value, wake.result.value.index, deps.now());
        } else if (!controller.signal.aborted) {
          watch.failAll(wake.result.error, 'allocation');
        }
      } else if (wake.kind === 'evaluations') {
        evaluations = undefined;
        if (wake.result.ok) {
          if (wake.result.value.index <= wake.index) evaluationsNotBefore = deps.now() + STALL_BACKOFF_MS;
          watch.onEvaluations(wake.result.value.value, wake.result.value.index);
        } else if (!controller.signal.aborted) {
          watch.failAll(wake.result.error, 'evaluations');
        }
      }
    }
  } finally {
    // Abandons any blocking query still held open; they are reads, so nothing is lost.
    controller.abort();
    deps.signal?.removeEventListener('abort', onAbort);
  }
  return watch.result(batchIndex);
}

/** The mutable state of one watch slice; turned back into a cursor at the end. */
class BatchWatch {
  public waiting: WaitingAllocation[];
  public allocationsIndex: number;
  public evaluationsIndex: number;
  private readonly settled: Record<string, AllocationOutcome>;
  private readonly interval: number;
  private readonly timeoutAt: number;

  public constructor(
    private readonly plan: RestartPlan,
    private readonly cursor: AwaitCursor,
    private readonly options: RestartOptions,
    private readonly deps: AwaitBatchDeps,
  ) {
    this.waiting = [...cursor.waiting];
    this.settled = { ...cursor.settled };
    this.allocationsIndex = cursor.allocationsIndex;
    this.evaluationsIndex = cursor.evaluationsIndex;
    this.interval = deps.stillWaitingIntervalMs ?? STILL_WAITING_INTERVAL_MS;
    this.timeoutAt =
      options.replacementTimeoutNs === undefined
        ? Number.POSITIVE_INFINITY
        : cursor.startedAt + options.replacementTimeoutNs / 1e6;
  }

  public anyStuck(): boolean {
    return this.waiting.some((w) => w.stuck);
  }

  public nextTimerAt(): number {
    return Math.min(this.timeoutAt, ...this.waiting.map((w) => w.nextStillWaitingAt));
  }

  /** The 60 s ticker and `-replacement-timeout`. */
  public tick(now: number): void {
    if (now >= this.timeoutAt && this.options.replacementTimeoutNs !== undefined) {
      const timeoutNs = this.options.replacementTimeoutNs;
      for (const w of this.waiting) {
        this.fail(
          w,
          new ReplacementTimeoutError({
            allocationId: w.allocationId,
            timeoutNs,
            timeoutText: formatGoDuration(timeoutNs),
            verbose: this.options.verbose,
          }),
        );
      }
      return;
    }
    this.waiting = this.waiting.map((w) => {
      if (now < w.nextStillWaitingAt) return w;
      this.deps.emit({ type: 'still-waiting', time: now, allocationId: w.allocationId });
      const missed = Math.floor((now - w.nextStillWaitingAt) / this.interval) + 1;
      return { ...w, nextStillWaitingAt: w.nextStillWaitingAt + missed * this.interval };
    });
  }

  /** Follows each waiting allocation's chain through one snapshot of the job's allocations. */
  public onAllocations(stubs: readonly AllocListStub[], index: number, now: number): void {
    this.allocationsIndex = Math.max(index, 1);
    const byId = new Map(stubs.map((stub) => [stub.ID, stub]));
    for (const w of [...this.waiting]) {
      this.follow(w, byId, now);
    }
  }

  private follow(start: WaitingAllocation, byId: ReadonlyMap<string, AllocListStub>, now: number): void {
    let w = start;
    let stub = byId.get(w.current);
    while (stub?.NextAllocation) {
      const next = stub.NextAllocation;
      this.deps.emit({
        type: 'allocation-replaced',
        time: now,
        allocationId: w.current,
        replacementId: next,
        cause: replacementCause(stub),
      });
      w = {
        allocationId: w.allocationId,
        group: w.group,
        stopIndex: w.stopIndex,
        current: next,
        stuck: false,
        nextStillWaitingAt: w.nextStillWaitingAt,
      };
      stub = byId.get(next);
    }
    if (stub === undefined) {
      if (w.current === start.current) {
        this.fail(w, new AllocationVanishedError(displayId(w.current, this.options)));
      } else {
        // The replacement is linked but not in this snapshot yet; the next answer will have it.
        this.replace(start, w);
      }
      return;
    }
    if (stub.ClientStatus === 'running' && w.current !== w.allocationId) {
      this.deps.emit({
        type: 'allocation-status',
        time: now,
        allocationId: w.current,
        status: 'running',
        verbose: false,
      });
      this.settle({
        allocationId: w.allocationId,
        group: w.group,
        status: 'replaced',
        replacementId: w.current,
      });
      return;
    }
    if (this.options.verbose && stub.ClientStatus !== 'running' && stub.ClientStatus !== w.lastStatus) {
      this.deps.emit({
        type: 'allocation-status',
        time: now,
        allocationId: w.current,
        status: stub.ClientStatus,
        verbose: true,
      });
      w = { ...w, lastStatus: stub.ClientStatus };
    }
    this.replace(start, { ...w, stuck: stub.DesiredStatus !== 'run' });
  }

  /**
   * Blocked evaluations created after a stop that could not place the group (Nomad's
   * `command/job_restart.go` `monitorPlacementFailures`).
   */
  public onEvaluations(evaluations: readonly Evaluation[], index: number): void {
    this.evaluationsIndex = Math.max(index, 1);
    const blocked = evaluations.filter((evaluation) => evaluation.Status === 'blocked');
    for (const w of [...this.waiting]) {
      const failed = blocked.find(
        (evaluation) =>
          evaluation.CreateIndex >= w.stopIndex && evaluation.FailedTGAllocs?.[w.group] !== undefined,
      );
      const metric = failed?.FailedTGAllocs?.[w.group];
      if (failed !== undefined && metric !== undefined) {
        this.fail(
          w,
          new PlacementFailureError({
            evalId: failed.ID,
            group: w.group,
            metric,
            verbose: this.options.verbose,
          }),
          true,
        );
      }
    }
  }

  /** A watch query failed: every waiting allocation fails with Nomad's watcher text. */
  public failAll(error: unknown, step: 'allocation' | 'evaluations'): void {
    for (const w of [...this.waiting]) {
      this.fail(
        w,
        new AllocationStepError({
          step,
          cause: error,
          jobId: this.plan.job.id,
          allocationId: w.current,
          verbose: this.options.verbose,
        }),
      );
    }
  }

  public result(batchIndex: number): AwaitBatchResult {
    const cursor: AwaitCursor = {
      batchIndex,
      startedAt: this.cursor.startedAt,
      allocationsIndex: this.allocationsIndex,
      evaluationsIndex: this.evaluationsIndex,
      waiting: this.waiting,
      settled: this.settled,
    };
    const waitingById = new Map(this.waiting.map((w) => [w.allocationId, w]));
    const outcomes = planBatch(this.plan, batchIndex).flatMap((allocation): AllocationOutcome[] => {
      const settled = this.settled[allocation.id];
      if (settled !== undefined) return [settled];
      const w = waitingById.get(allocation.id);
      return w === undefined
        ? []
        : [{ allocationId: w.allocationId, group: w.group, status: 'stopped', stopIndex: w.stopIndex }];
    });
    return { done: this.waiting.length === 0, cursor, outcomes };
  }

  private replace(previous: WaitingAllocation, next: WaitingAllocation): void {
    this.waiting = this.waiting.map((w) => (w.allocationId === previous.allocationId ? next : w));
  }

  private settle(outcome: AllocationOutcome): void {
    this.settled[outcome.allocationId] = outcome;
    this.waiting = this.waiting.filter((w) => w.allocationId !== outcome.allocationId);
  }

  private fail(w: WaitingAllocation, inner: unknown, unrecoverable = false): void {
    this.settle(
      failedOutcome({ id: w.allocationId, group: w.group }, inner, {
        verbose: this.options.verbose,
        unrecoverable,
      }),
    );
  }
}
