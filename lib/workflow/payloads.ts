/**
 * The data that flows through the state machine. Every task receives the whole
 * {@link WorkflowState} as its Lambda payload and returns the next one (`ResultPath: $`), so the
 * graph needs no JSONPath plumbing and the handler layer owns how a step's output merges into
 * the state.
 *
 * Size rule: the state is O(1) in job size. It carries the options, a reference to the plan
 * (which lives in the plan store), a cursor and counters, never the allocation list. The only
 * part that grows with a step's work is `events`, the progress events of the step that just
 * ran; it is replaced, not appended, by every step, so execution history holds each event once
 * and the CLI/chat render them from there. Step Functions caps a state at 256 KiB: a
 * step must keep its events and cursor well below that (see {@link MAX_STEP_EVENTS}).
 *
 * Everything is plain JSON: no `undefined` (use `null`), no `Date`, no class instances.
 */
import type { RestartOptions } from '../restart';
import type { ProgressEvent } from '../restart/events';
import type { RunOutcome, RunSummary, SkippedCounts } from '../restart/run-summary';
import type { EventsElsewhere } from './state-bytes';

/** A step emits at most this many events per call; past it, it summarises. */
export const MAX_STEP_EVENTS = 500;

/** One restart run, across the chain of executions that continue-as-new creates. */
export interface RunRef {
  /**
   * Identity of the run: the ARN (or local id) of its first execution. It owns the job lock
   * and prefixes every plan-store key, so a continued execution finds both.
   */
  readonly runId: string;
  /** The ARN (or local id) of the current execution. */
  readonly executionId: string;
  /** 1 for the first execution, +1 per continue-as-new. */
  readonly executionNumber: number;
  /** Who or what started the run (the input's `startedBy`), shown with its questions in chat. */
  readonly startedBy?: string;
  /** Unix ms when the run's first execution started (`$$.Execution.StartTime`); absent in older states. */
  readonly startedAt?: number;
  /**
   * What the run's continued executions are named after (`continuation-name.ts`); absent in
   * states from before it, where "Resume run" adds it.
   */
  readonly continuationPrefix?: string;
  /** Unix ms of the run's last take or renewal of its locks (steps/lock/lease-renewal.ts); absent: renew. */
  readonly leaseRenewedAt?: number;
  /** Unix ms of the run's last run-control read, or its take (steps/lock/control-read.ts); absent: read. */
  readonly controlReadAt?: number;
}

/** What Plan resolved and stored. Everything else about the plan is in the plan store. */
export interface PlanRef {
  /** Plan-store key of the stored plan (ordered allocations cut into batches). */
  readonly planKey: string;
  /** Full job ID, after prefix resolution (Nomad's `command/meta.go` `Meta.JobByPrefix`). */
  readonly jobId: string;
  /** The job's namespace, used for every later request (Nomad's `command/job_restart.go` `Run`). */
  readonly namespace: string;
  /** `Job.Type` as Nomad reported it; `''` when missing. */
  readonly jobType: string;
  /** Eligible allocations after filtering (Nomad's `command/job_restart.go` `filterAllocs`). */
  readonly allocationCount: number;
  /** Batch size after resolving `n%` against `allocationCount` (Nomad's `command/job_restart.go` `Run`). */
  readonly batchSize: number;
  /** `ceil(allocationCount / batchSize)`; 0 when there is nothing to restart. */
  readonly batchCount: number;
  /**
   * `true` for `-reschedule` on a **system** job (from the job info call, so a pruned version
   * still counts, unlike Nomad; README, "Differences from nomad job restart"): the graph stops the
   * batch, then runs the explicit "Trigger evaluations" step, then awaits replacements.
   */
  readonly triggerEvaluations: boolean;
  /** Allocations left out of the plan, by reason, for the run's summary; absent in older states. */
  readonly skipped?: SkippedCounts;
}

/** Counters and loop position. Updated by guard, decide and apply-answer steps. */
export interface Progress {
  /** 0-based index of the next batch to run; equals `plan.batchCount` when all ran. */
  readonly nextBatch: number;
  /** Batches started by the current execution; the graph continues as new past a limit. */
  readonly batchesThisExecution: number;
  /** Allocations restarted (or rescheduled) without error so far. */
  readonly restarted: number;
  /** Allocations that failed so far (what `-max-errors` counts). */
  readonly failed: number;
  /**
   * Entries in the run's flat error list (Nomad's `command/job_restart.go` `errorFormat`); the
   * texts are in the plan store.
   */
  readonly errorCount: number;
  /** Whether the proceed question is asked between batches (`-batch-wait ask`, until a `<duration>` answer). */
  readonly askBetweenBatches: boolean;
  /** Wait between batches in ms, from `-batch-wait` or a `<duration>` answer; ≤ 0 means none. */
  readonly batchWaitMs: number;
  /**
   * A "no" answer ended the run (Nomad's `command/job_restart.go` `shouldProceed`): finish prints
   * no success line.
   */
  readonly canceled: boolean;
  /**
   * History events this execution has written so far, as estimated by the steps
   * (`history-budget.ts`): the graph continues as new once it reaches the budget. Absent in
   * older states.
   */
  readonly historyEvents?: number;
}

/** A question parked on a task token. The steps word it; the ask step stores it. */
export interface PendingQuestion {
  /**
   * Which question (multi-region, proceed, or a run-control pause asking to resume): decides how
   * apply-answer reads the reply and its default.
   */
  readonly kind: 'multiregion' | 'proceed' | 'pause';
  /** The prompt exactly as Nomad prints it, options included, e.g. `Proceed with the next batch? [Y/n]`. */
  readonly prompt: string;
  /** Plain-text batch summary shown next to the question in chat (errors of the batch, counts). */
  readonly summary: string;
  /**
   * Unix ms when the step decided to ask: "Apply answer" reports how long the run waited
   * (`question-waited`). Absent in states from before it.
   */
  readonly askedAt?: number;
}

/** What the graph does next; "Next step?" routes on `action`. */
export type NextAction = 'batch' | 'wait' | 'ask' | 'finish' | 'cancel' | 'bake';

/** The decision taken after Plan, after each batch, and after each answer. */
export interface Decision {
  /**
   * - `batch`: run `progress.nextBatch` now;
   * - `wait`: sleep `waitSeconds` (Wait state), then run the next batch;
   * - `ask`: park `question` on a task token, then apply the answer;
   * - `finish`: leave the loop and print the final output (also after a "no");
   * - `cancel`: an interrupt was confirmed (Nomad's `command/job_restart.go` `handleSignal`): fail
   *   as `Canceled` without a summary;
   * - `bake`: after the last batch (`-bake-time`), wait `waitSeconds`, then check the alarms again
   *   (lib/steps/alarms/bake-step.ts).
   */
  readonly action: NextAction;
  /** Seconds for the Wait state when `action` is `wait` or `bake`; 0 otherwise. Whole seconds, rounded up. */
  readonly waitSeconds: number;
  /** Set when `action` is `ask`, `null` otherwise. */
  readonly question: PendingQuestion | null;
}

/** The batch in flight: set by restart-batch, advanced by trigger-evaluations and await-batch. */
export interface BatchState {
  /** 0-based batch index. */
  readonly index: number;
  /** Allocations in this batch. */
  readonly size: number;
  /** Unix ms when the batch started; retries compare `LastRestart` against it (idempotency). */
  readonly startedAt: number;
  /**
   * Nomad index before the first stop, for placement-failure detection (`command/job_restart.go`
   * `monitorPlacementFailures`). `0` for in-place restarts.
   */
  readonly stopIndex: number;
  /** Whether every allocation of the batch has settled (restarted, running replacement, or failed). */
  readonly done: boolean;
  /**
   * Step-private resume point of await-batch (blocking-query index, per-allocation chain
   * heads, last "Still waiting" times). Opaque to the graph; keep it under 8 KiB and put
   * anything bigger in the plan store.
   */
  readonly cursor: unknown;
  /**
   * Errors of this batch so far (`batchErr` in Nomad's `command/job_restart.go` `Run`); their texts
   * are in the plan store.
   */
  readonly errorCount: number;
  /**
   * Any error of this batch is unrecoverable (placement failure or `Permission denied`, Nomad's
   * `command/job_restart.go` `isErrorRecoverable`).
   */
  readonly unrecoverable: boolean;
  /**
   * Await slices this execution ran for the batch: past the budget the run continues as new
   * between two slices (history events). Absent until the first slice.
   */
  readonly slicesThisExecution?: number;
  /**
   * With `-wait-healthy`: "Await health" has judged the settled batch (its result counts the
   * allocations that failed the gate). Absent until then; the batch goes to "Decide" only after.
   */
  readonly healthChecked?: boolean;
}

/** Result of the deployment guard and the cancel check before a batch. */
export interface GuardState {
  /** An active deployment (or a failed deployment lookup) stops the run; the error is recorded. */
  readonly blocked: boolean;
  /** A cancel request was found at this safe point. */
  readonly canceled: boolean;
  /** The maintenance window has ended: no batch starts; the run finishes here. Absent in older states. */
  readonly windowEnded?: boolean;
  /** A pause request was found: the run asks to resume before the batch (run control). Absent: no. */
  readonly paused?: boolean;
  /** A stop request was found: the run ends here as after a "no" (run control). Absent: no. */
  readonly stopped?: boolean;
  /** A `-stop-on-alarm` alarm is in `ALARM`: the run ends here as after a failed batch. Absent: no. */
  readonly alarmFired?: boolean;
}

/** How the run ended, as "Finished with errors?" routes it. */
export type Outcome = RunOutcome;

/**
 * The final output of a run (the `Restart finished`, `StoppedAtWindowEnd` and `SkippedJobLocked`
 * Succeed states output it; a failed run's `Cause` is its `text`): see lib/restart/run-summary.ts.
 */
export type Summary = RunSummary;

/** What a caller sends with `SendTaskSuccess` to answer a question. */
export interface ApprovalAnswer {
  /** The typed reply: `yes`, `no`, `y`, `n`, `''` or a Go duration such as `10s`. */
  readonly answer: string;
  /** Who answered (user name, chat handle), for the record. @default - unknown */
  readonly answeredBy?: string;
}

/** What a `Catch` writes at `$.error` (and at `$.answer` when the question timed out). */
export interface TaskFailure {
  readonly Error: string;
  readonly Cause: string;
}

/** The state document, from "Validate input" to the end. */
export interface WorkflowState {
  readonly options: RestartOptions;
  readonly run: RunRef;
  readonly plan: PlanRef | null;
  readonly progress: Progress | null;
  readonly decision: Decision | null;
  readonly guard: GuardState | null;
  readonly batch: BatchState | null;
  readonly summary: Summary | null;
  /** Progress events of the step that produced this state (replaced by every step). */
  readonly events: ProgressEvent[];
  /**
   * Plan's events, held until "Lock job" has taken the job: that step shows them before its own,
   * so a run refused the job shows none of a plan it will not carry out. Absent after "Lock job".
   */
  readonly planEvents?: ProgressEvent[];
  /**
   * The step's lists that passed their byte budget (state-bytes.ts): whole in the plan store under
   * these keys, by field (`events`, `planEvents`). Absent when everything fit.
   */
  readonly eventsElsewhere?: Readonly<Partial<Record<'events' | 'planEvents', EventsElsewhere>>>;
  /** Written by the ask step: the answer, or the timeout failure. Absent otherwise. */
  readonly answer?: ApprovalAnswer | TaskFailure;
  /** Written by `Catch` on the way to "Release lock after error". */
  readonly error?: TaskFailure;
}

/** Payload of "Validate input": the raw execution input, the execution's ARN and start time. */
export interface ValidateInputEvent {
  readonly input: unknown;
  readonly executionId: string;
  /** `$$.Execution.StartTime` (RFC 3339): a relative maintenance window counts from here. */
  readonly startTime: string;
}

/** Payload of "Resume run": the previous execution's state and the new execution's ARN. */
export interface ResumeRunEvent {
  readonly continuation: unknown;
  readonly executionId: string;
}

/** Execution input of a continued execution (what "Continue as new execution" starts). */
export interface ContinuationInput {
  readonly continuation: WorkflowState;
}

/** Payload of the ask step (`lambda:invoke.waitForTaskToken`). */
export interface AskEvent {
  readonly taskToken: string;
  readonly executionId: string;
  readonly runId: string;
  readonly jobId: string;
  readonly namespace: string;
  readonly question: PendingQuestion;
  /** Seconds the question waits for an answer (the ask step's `TimeoutSeconds`); absent in older definitions. */
  readonly timeoutSeconds?: number;
  /** The run's options (its `region`), for the people asked. */
  readonly options?: RestartOptions;
  /** The run (who started it). */
  readonly run?: RunRef;
  /** The plan (batch count and size). */
  readonly plan?: PlanRef;
  /** Counters: the batch just run is `nextBatch` (1-based); none yet for the multi-region question. */
  readonly progress?: Progress | null;
}

/** Output of the ask Lambda itself (the task's result is the later `SendTaskSuccess` output). */
export interface AskResult {
  readonly approvalId: string;
}
