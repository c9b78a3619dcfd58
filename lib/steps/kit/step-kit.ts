/**
 * What every workflow step shares: the run's objects in the plan store (their keys:
 * `lib/stores/plan-keys.ts`), the event recorder, and the small decision shapes.
 */

import type { NomadClient } from '../../nomad/client';
import type { BatchError } from '../../restart/allocation-errors';
import { isBatchUnrecoverable } from '../../restart/allocation-errors';
import type { EmitProgress, ProgressEvent } from '../../restart/events';
import type { RestartOptions } from '../../restart/options';
import type { RestartPlan } from '../../restart/plan';
import type { Question } from '../../restart/questions';
import type { SkippedCounts } from '../../restart/run-summary';
import { TIMESTAMP_PREFIX_LENGTH } from '../../restart/text';
import { planKeys } from '../../stores/plan-keys';
import { getIfPresent, type PlanStore } from '../../stores/plan-store';
import {
  type BatchState,
  type Decision,
  MAX_STEP_EVENTS,
  type PendingQuestion,
  type Progress,
} from '../../workflow/payloads';
import type { GuardOutput, RestartStepsDeps } from '../../workflow/restart-steps';
import type { HistoryDeps } from './job-history';
import { type AllocationOutcome, batchErrorsOf, failedCountOf } from './outcomes';
import { cachedPlan } from './plan-cache';
import type { Sleep } from './watch-timing';

/** A settled batch, as Decide and Apply answer read it. */
export interface BatchResult {
  readonly errors: BatchError[];
  readonly failed: number;
  readonly restarted: number;
  /** Each allocation's outcome, which "Await health" starts from; absent in results stored before it. */
  readonly outcomes?: AllocationOutcome[];
}

/** The run's allocation counts as of the last batch Decide counted. */
export interface RunCounts {
  readonly planned: number;
  readonly restarted: number;
  readonly failed: number;
  readonly skipped: SkippedCounts;
}

/** What the run has collected so far across batches (and executions). */
export interface RunRecord {
  readonly errors: BatchError[];
  readonly countedBatches: number[];
  /** `alarm`: a `-stop-on-alarm` alarm fired (lib/steps/alarms/alarm-stop.ts): no further batch. */
  readonly stoppedOn?: 'error' | 'unrecoverable-error' | 'max-errors' | 'window-end' | 'alarm';
  /** Who stopped the run (a run-control `stop`, or a "no" to its pause question), as attributed. */
  readonly stoppedBy?: string;
  /** `-bake-time`: the Unix ms until which the last batch bakes; set by Decide after it. */
  readonly bakeUntil?: number;
  /**
   * Kept by Decide with each batch it counts: what a run's end notification shows when the run
   * ends outside "Finish restart" (aborted, timed out). Absent before the first batch is counted.
   */
  readonly counts?: RunCounts;
}

export const EMPTY_RUN: RunRecord = { errors: [], countedBatches: [] };

/**
 * The record of run `runId`, read from outside a step (the run-end notifier); `undefined` when
 * the run has none (no batch settled yet).
 */
export function readRunRecord(planStore: PlanStore, runId: string): Promise<RunRecord | undefined> {
  return getIfPresent<RunRecord>(planStore, planKeys.runRecord(runId));
}

/** A decision for the graph's "What next?" choice; `extra` sets the wait or the question. */
export const decision = (action: Decision['action'], extra: Partial<Decision> = {}): Decision => ({
  action,
  waitSeconds: 0,
  question: null,
  ...extra,
});

/** The batch wait the progress carries now (an answer can replace it mid-run). */
export const batchWaitOf = (progress: Progress) =>
  progress.askBetweenBatches
    ? ({ kind: 'ask' } as const)
    : ({ kind: 'duration', ns: Math.max(0, progress.batchWaitMs) * 1e6 } as const);

/** The workflow's name for a question kind (the interrupt question is the terminal's own, never parked). */
const pendingKindOf = (kind: Question['kind']): PendingQuestion['kind'] =>
  kind === 'multi-region' ? 'multiregion' : kind === 'pause' ? 'pause' : 'proceed';

/** A question as the Ask state parks it: Nomad's lines joined under the timestamp prefix. */
export function pendingQuestion(question: Question, summary: string): PendingQuestion {
  const text = question.lines.join(`\n${' '.repeat(TIMESTAMP_PREFIX_LENGTH)}`);
  return {
    kind: pendingKindOf(question.kind),
    prompt: `${text} [${question.options}]`,
    summary,
  };
}

/** A step's events: kept for its result, and shown live as they happen. */
export interface StepRecorder {
  readonly events: ProgressEvent[];
  /**
   * Shows `event` live and keeps it for the step's result; `kept` replaces it there (an event
   * whose error list was cut to a sample to keep the state small, see error-sample.ts).
   */
  readonly emit: (event: ProgressEvent, kept?: ProgressEvent) => void;
}

/** What a step that works on the plan's allocations starts from ({@link StepKit.planWork}). */
export interface PlanWork {
  /** The client for the run's region. */
  readonly nomad: NomadClient;
  readonly plan: RestartPlan;
  /** The step's events, for its result. */
  readonly events: ProgressEvent[];
  /** What the batch functions (restart, reschedule, await, health) take: the recorder, the clock, the deadline. */
  readonly watch: {
    readonly emit: EmitProgress;
    readonly now: () => number;
    readonly sleep: Sleep | undefined;
    readonly signal: AbortSignal;
  };
}

/** What a step kit is built from: an invocation's deps, and where its run's record goes. */
export interface StepKitDeps extends RestartStepsDeps {
  /**
   * The job's run history (lib/steps/kit/job-history.ts). The handlers always give it.
   * @default - no record is written (the run-level events are still emitted)
   */
  readonly history?: HistoryDeps;
}

/** The deps of one invocation plus the helpers built on them; each step takes one of these. */
export interface StepKit extends Omit<StepKitDeps, 'nomad'> {
  /**
   * The Nomad client for a run: the input's region (the only way a console or scheduled run
   * names one) on every request, as Nomad's `-region` does.
   */
  nomadFor(options: RestartOptions): NomadClient;
  /**
   * Collects a step's events for its result and shows each to the live sink at once. The plan
   * step passes `live: false`: its lines must wait behind the multi-region question.
   */
  recorder(options?: { live: boolean }): StepRecorder;
  /** The run's plan, decoded once per process. */
  loadPlan(planKey: string): Promise<RestartPlan>;
  /** The client, the plan and a live recorder, for a step that works on the plan's allocations. */
  planWork(options: RestartOptions, planKey: string): Promise<PlanWork>;
  /** An object of the plan store, or undefined when it does not exist yet. */
  tryGet<T>(key: string): Promise<T | undefined>;
  /** The run record, empty before the first batch settles. */
  loadRun(runId: string): Promise<RunRecord>;
  /**
   * Adds an error found at the safe point before a batch (an active deployment, a lost lock) to
   * the run record, for Finish to report; answers the guard's output that stops the run there.
   */
  stopWithError(runId: string, error: BatchError, progress: Progress): Promise<GuardOutput>;
  /**
   * Settles a batch: its result for Decide, and the state the graph carries. `runErrors` are
   * errors of the batch that concern no allocation (an alarm that fired during its health wait).
   */
  settle(
    runId: string,
    batch: { index: number; size: number; startedAt: number },
    outcomes: readonly AllocationOutcome[],
    runErrors?: readonly BatchError[],
  ): Promise<BatchState>;
}

/** Builds the kit for one invocation (deps carry that invocation's deadline signal). */
export function createStepKit(deps: StepKitDeps): StepKit {
  const { nomad, planStore, onEvent, ...rest } = deps;
  // A failing read fails the step (Step Functions retries it), instead of a retried batch
  // forgetting its journal and restarting allocations again, or a run record losing its errors.
  const tryGet = <T>(k: string): Promise<T | undefined> => getIfPresent<T>(planStore, k);
  const nomadFor: StepKit['nomadFor'] = (options) =>
    options.region === undefined ? nomad : nomad.withRegion(options.region);
  const recorder: StepKit['recorder'] = ({ live } = { live: true }) => {
    const events: ProgressEvent[] = [];
    const seen = live ? onEvent : undefined;
    return {
      events,
      emit: (event: ProgressEvent, kept: ProgressEvent = event) => {
        seen?.(event);
        // Past the cap a step keeps its first events; the counters still say what happened.
        if (events.length < MAX_STEP_EVENTS) events.push(kept);
      },
    };
  };
  const loadPlan: StepKit['loadPlan'] = (planKey) =>
    cachedPlan(planKey, async (k) => (await planStore.get(k)) as RestartPlan);
  return {
    ...rest,
    planStore,
    nomadFor,
    recorder,
    loadPlan,
    async planWork(options, planKey) {
      const { events, emit } = recorder();
      const plan = await loadPlan(planKey);
      const watch = { emit, now: rest.now, sleep: rest.sleep, signal: rest.signal };
      return { nomad: nomadFor(options), plan, events, watch };
    },
    tryGet,
    loadRun: async (runId) => (await tryGet<RunRecord>(planKeys.runRecord(runId))) ?? EMPTY_RUN,
    async stopWithError(runId, error, progress) {
      const record = (await tryGet<RunRecord>(planKeys.runRecord(runId))) ?? EMPTY_RUN;
      await planStore.put(planKeys.runRecord(runId), { ...record, errors: [...record.errors, error] });
      return { events: [], blocked: true, progress: { ...progress, errorCount: progress.errorCount + 1 } };
    },
    async settle(runId, batch, outcomes, runErrors = []) {
      const errors = [...batchErrorsOf(outcomes), ...runErrors];
      const failed = failedCountOf(outcomes);
      const result: BatchResult = {
        errors,
        failed,
        restarted: outcomes.length - failed,
        outcomes: [...outcomes],
      };
      await planStore.put(planKeys.batchResult(runId, batch.index), result);
      return {
        ...batch,
        stopIndex: 0,
        done: true,
        cursor: null,
        errorCount: errors.length,
        unrecoverable: isBatchUnrecoverable(errors),
      };
    },
  };
}
