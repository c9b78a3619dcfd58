/**
 * The boundary between the state machine's task handlers and the restart steps. Each method
 * serves one Task state; its handler (`lambdas/<state>.ts`) decodes the state, calls the method,
 * and builds the next state from the result. `lib/steps/` implements this interface from these
 * docs (`createRestartSteps`), one file per step.
 *
 * Rules every method follows:
 * - **Idempotent.** Step Functions retries a task after a Lambda crash, a timeout or a transient
 *   Nomad error, with the same input. A re-run must not restart an allocation twice or stop a
 *   replacement: an allocation already stopped by us (desired `stop`, `NextAllocation` set) is
 *   awaited, not stopped again; an in-place restart whose task shows `LastRestart` (or a
 *   `Restart Signaled` event) at or after `batch.startedAt` counts as done.
 * - **Bounded.** Honour `deps.signal` (fired shortly before the Lambda times out): return what
 *   is done (await-batch) or throw; never outlive it. Return at most `MAX_STEP_EVENTS` events.
 * - **Typed errors.** Throw the restart domain's classes for outcomes the graph routes on
 *   (`JobNotFoundError`, `MultipleJobsMatchedError`, `RescheduleNotAllowedError`: names in
 *   `WORKFLOW_ERROR_NAMES`); transient Nomad failures may be thrown
 *   as they are (the handler re-throws them as `NomadTransientError` for `Retry`). Per-allocation
 *   failures are not thrown: they are recorded (plan store) and counted.
 * - **No secrets** in any output, event or error message.
 */

import type { NomadClient } from '../nomad';
import type { RestartOptions } from '../restart';
import type { AlarmReader } from '../restart/alarms';
import type { ProgressEvent } from '../restart/events';
import type { ConsulChecksReader } from '../restart/health/consul-health';
import type { PlanStore } from '../stores/plan-store';
import type {
  ApprovalAnswer,
  BatchState,
  Decision,
  PlanRef,
  Progress,
  RunRef,
  Summary,
  TaskFailure,
} from './payloads';

/** Everything a step result carries besides its data: the events of this step, in order. */
export interface StepEvents {
  readonly events: ProgressEvent[];
}

/** What every step receives. */
export interface StepInput {
  readonly options: RestartOptions;
  readonly run: RunRef;
}

/** Steps that run after Plan also see the plan and the counters. */
export interface PlannedStepInput extends StepInput {
  readonly plan: PlanRef;
  readonly progress: Progress;
}

/** Steps inside a batch also see the batch. */
export interface BatchStepInput extends PlannedStepInput {
  readonly batch: BatchState;
}

export interface PlanOutput extends StepEvents {
  readonly plan: PlanRef;
  readonly progress: Progress;
  readonly decision: Decision;
}

export interface GuardOutput extends StepEvents {
  readonly blocked: boolean;
  readonly progress: Progress;
}

export interface BatchOutput extends StepEvents {
  readonly batch: BatchState;
}

export interface AwaitOutput extends StepEvents {
  /** Every allocation of the batch settled; `false` loops "Await batch" again. */
  readonly done: boolean;
  /** Resume point for the next await call (stored as `batch.cursor`). */
  readonly cursor: unknown;
  /** The batch with counters updated by what this call observed. */
  readonly batch: BatchState;
}

export interface DecideInput extends BatchStepInput {
  /**
   * An interrupt (cancel request) is pending: this is a safe point, honour it (Nomad's
   * `command/job_restart.go` `handleSignal`).
   */
  readonly cancelRequested: boolean;
}

/** What "Check while baking" receives (`-bake-time`): the run, and whether a cancel is pending. */
export interface BakeInput extends PlannedStepInput {
  readonly cancelRequested: boolean;
}

export interface DecisionOutput extends StepEvents {
  readonly progress: Progress;
  readonly decision: Decision;
}

export interface AnswerInput extends PlannedStepInput {
  /** The decision that asked (its `question` is set). */
  readonly decision: Decision;
  /** The reply, or the `States.Timeout` failure when nobody answered in time. */
  readonly answer: ApprovalAnswer | TaskFailure;
}

export interface FinishInput extends StepInput {
  /** `null` when the run ends before a plan exists. */
  readonly plan: PlanRef | null;
  readonly progress: Progress | null;
}

export interface FinishOutput extends StepEvents {
  readonly summary: Summary;
}

/** One method per Task state. */
export interface RestartSteps {
  /**
   * "Plan restart" (Nomad's `command/job_restart.go` `Run`, up to the batch loop). Resolves the job
   * prefix (`JobNotFoundError` / `MultipleJobsMatchedError` with Nomad's message when none or
   * several match), refuses `-reschedule` on other types than batch/service/system
   * (`RescheduleNotAllowedError`, nothing touched), fetches allocations (versions when needed), filters
   * (`filterAllocs`, skipping allocations with `NextAllocation`), resolves `n%` from the eligible count, cuts
   * batches and stores the plan under a key prefixed by `run.runId`. Returns the initial progress
   * (from options) and the first decision: `finish` when nothing is eligible (event
   * `nothing-to-restart`), `ask` with the multi-region question when the job is multi-region and
   * `-yes` is off, else `batch` (event `restart-started`). Does not take the lock: "Lock job" runs
   * next. Makes no Nomad writes.
   */
  plan(input: StepInput): Promise<PlanOutput>;

  /**
   * "Check deployments": the deployment guard before batch `progress.nextBatch` (Nomad's
   * `command/job_restart.go` `ensureNoActiveDeployment`, once per batch). An active
   * deployment or a failed lookup is recorded as a run error (`Deployment "<id>" is "<status>"`)
   * and returns `blocked: true`; the graph then finishes. The lock's checks at this safe point
   * (cancel, window end, lost lock) come first, in `LockSteps.guard` (lib/steps/lock/lock-steps.ts).
   */
  checkDeployments(input: PlannedStepInput): Promise<GuardOutput>;

  /**
   * "Restart batch" and, for system-job reschedules, "Stop allocations": starts every
   * allocation of batch `progress.nextBatch` concurrently (Nomad's `command/job_restart.go`
   * `handleAlloc`): in-place restart, or stop (with `no_shutdown_delay` when asked). Emits
   * `batch-started` (when batch size > 1) and `allocation-restarting`. In-place restarts usually
   * settle here (`done: true`); reschedules return `done: false` and a cursor for "Await batch".
   * Records failures.
   */
  restartBatch(input: PlannedStepInput): Promise<BatchOutput>;

  /**
   * "Trigger evaluations" (system jobs with `-reschedule` only): for each stopped allocation of
   * the batch, `PUT /v1/job/:id/evaluate` with `ForceReschedule: true`, so the system scheduler
   * places a replacement. Emits `evaluation-triggered`. Idempotent: an allocation whose
   * replacement already exists is skipped.
   */
  triggerEvaluations(input: BatchStepInput): Promise<BatchOutput>;

  /**
   * "Await batch": one blocking-query watch for the whole batch, following `NextAllocation`
   * chains until every replacement runs, a placement failure shows (unrecoverable), or
   * `-replacement-timeout` passes. Returns `done: false` with a cursor when `deps.signal`
   * fires first; the graph calls again with `batch.cursor` set to it. Emits
   * `allocation-replaced`, `allocation-status` and `still-waiting`.
   */
  awaitBatch(input: BatchStepInput): Promise<AwaitOutput>;

  /**
   * "Await health" (`-wait-healthy`, after the batch settled): one watch for the whole batch, a
   * blocking query on the job's allocations for task states and each allocation's Nomad service
   * checks read at most once per poll interval, until every restarted allocation (or running
   * replacement) has been healthy for `-min-healthy-time`, has failed (reported at once), or has
   * passed `-healthy-deadline` (a recoverable error naming the task or check). Returns
   * `done: false` when `deps.signal` fires first; `done: true` with the batch result recounted.
   * Emits `health-waiting`, `allocation-healthy`, `health-still-waiting`, and with `-verbose`
   * `health-no-checks` and `health-reset`.
   */
  awaitHealth(input: BatchStepInput): Promise<AwaitOutput>;

  /**
   * "Decide" after a batch (Nomad's `command/job_restart.go` `Run`, end of a batch): adds the batch
   * to the counters and advances `nextBatch` and `batchesThisExecution`. Then, in order: `cancel`
   * if `cancelRequested`; `finish` after the last batch; `finish` on error with `-on-error=fail`
   * (event `stopping`), with `-yes` and an unrecoverable error, or past `-max-errors`
   * (`max-errors-exceeded`); `ask` (with `batch-errors` first when the batch failed) when the rules
   * say so; `wait` with the wait in whole seconds (event `waiting`) when `batchWaitMs > 0`; else
   * `batch`.
   */
  decide(input: DecideInput): Promise<DecisionOutput>;

  /**
   * "Check while baking" (`-bake-time`, after Decide chose `bake` after the last batch): `cancel`
   * if `cancelRequested`; a `-stop-on-alarm` alarm in `ALARM` records the alarm as a run error
   * (event `alarm-fired`) and finishes; else `bake` again with the wait to the next check, or
   * `finish` once the bake is over. Run by the decide function (lambdas/decide.ts).
   */
  bake(input: BakeInput): Promise<DecisionOutput>;

  /**
   * "Apply answer": reads the reply to `decision.question` as Nomad's `command/job_restart.go`
   * `shouldProceed` does. A timeout is a read error: the question's default applies (no).
   * Multi-region: yes → `batch`, no → `finish` with `canceled`. Proceed: yes → `wait`/`batch`; no →
   * `finish` with `canceled` (event `canceled`); `<duration>` (only while asking between batches)
   * sets `batchWaitMs`, clears `askBetweenBatches` (event `new-batch-wait`) and proceeds; an
   * invalid reply asks again (`ask` with the same question).
   */
  applyAnswer(input: AnswerInput): Promise<DecisionOutput>;

  /**
   * "Finish restart" (Nomad's `command/job_restart.go` `Run`, final output): reads the run's errors
   * from the plan store and emits `finished`. Outcome: `unrecoverable` when the run stopped on an
   * unrecoverable error, `failed` when errors were collected, `canceled` after a "no" without
   * errors, else `succeeded`. May delete the run's plan-store objects (the bucket also expires
   * them).
   */
  finish(input: FinishInput): Promise<FinishOutput>;
}

/** What `createRestartSteps` receives; built per invocation by the handler layer. */
export interface RestartStepsDeps {
  /** Configured for the Nomad agent; the namespace of each request comes from `plan.namespace`. */
  readonly nomad: NomadClient;
  /** Where plans, batch errors and bulky cursors live. */
  readonly planStore: PlanStore;
  /** Unix ms now; injected so tests control time. */
  readonly now: () => number;
  /** Waits `ms` on `now`'s clock, or less when `signal` aborts (the await steps' timers). @default real timers */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Fires a safety margin before the Lambda (or local step) must return. */
  readonly signal: AbortSignal;
  /**
   * Sees each progress event the moment it happens (the local engine's terminal: a `Still
   * waiting` line must not wait for its await slice to end). The step's result still carries
   * the events, capped, for the execution history.
   */
  readonly onEvent?: (event: ProgressEvent) => void;
  /**
   * Reads Consul's checks for `-wait-healthy` (never the Nomad token: Consul's own address and
   * token). Contacted only when the plan's allocations declare Consul services.
   */
  readonly consul?: ConsulChecksReader;
  /**
   * Reads the `-stop-on-alarm` alarms (CloudWatch `DescribeAlarms`, lib/alarms). Contacted only
   * when the options name alarms.
   */
  readonly alarms?: AlarmReader;
}
