/**
 * The local engine's public types: handlers, task-token answerers, continue-as-new requests and run options.
 */
import type { ExecutionStats } from './stats';
import type { TaskStateInfo } from './task-states';

/** What a local handler gets besides its payload. */
export interface TaskHandlerContext {
  /** The Task state being run. */
  readonly stateName: string;
  /** The task token, for `.waitForTaskToken` states. */
  readonly taskToken?: string;
  /** Aborted when the run is aborted or the state's `TimeoutSeconds` elapse. */
  readonly signal: AbortSignal;
}

/**
 * Runs one Task state locally. For `lambda:invoke` it gets the resolved `Payload` and returns
 * what the Lambda returns; a thrown error's `name` becomes the Step Functions error (what
 * `Retry`/`Catch` match) and its `message` the cause.
 */
export type TaskHandler = (payload: unknown, ctx: TaskHandlerContext) => Promise<unknown>;

/** Picks the handler of a Task state, or `undefined` when there is none. */
export type TaskHandlerResolver = (state: TaskStateInfo) => TaskHandler | undefined;

/**
 * Answers a `.waitForTaskToken` state, as `SendTaskSuccess` would: the returned value is the
 * state's result. Throwing is `SendTaskFailure`, with the error's `name` and `message`.
 */
export type TaskTokenAnswerer = (
  question: unknown,
  taskToken: string,
  ctx: { readonly stateName: string; readonly signal: AbortSignal },
) => Promise<unknown>;

/** A continue-as-new request: a `states:startExecution` Task asked for the next execution. */
export interface NextExecutionRequest {
  readonly stateMachineArn: string;
  /** Execution name, from the Task's `Name` parameter or generated. */
  readonly name: string;
  readonly input: unknown;
  readonly previousExecutionArn: string;
  /** 2 for the first continuation, 3 for the next, ... */
  readonly executionNumber: number;
}

/** Options of `runLocalExecution`. */
export interface RunLocalExecutionOptions {
  /** The execution input (JSON). */
  readonly input: unknown;
  /** Binds each Task state to a local handler; called once per Task state before the run starts. */
  readonly taskHandlers: TaskHandlerResolver;
  /**
   * Answers `.waitForTaskToken` states (a terminal prompt, a test, chat).
   * @default - a definition with a callback state is refused with `TaskBindingError`
   */
  readonly answerTaskToken?: TaskTokenAnswerer;
  /**
   * Decides whether to follow a continue-as-new request; return `false` to stop the chain there.
   * @default - every request is followed, up to `maxExecutions`
   */
  readonly startNextExecution?: (request: NextExecutionRequest) => boolean | Promise<boolean>;
  /**
   * Longest chain of executions to follow; a longer one fails with `States.Runtime`.
   * @default 1000
   */
  readonly maxExecutions?: number;
  /** Aborts the run, like `abort()`. */
  readonly signal?: AbortSignal;
  /** Called as each state is entered; delivered before the next Task's handler starts. */
  readonly onStateEntered?: (name: string, type: string) => void;
  /** Called with each state's output as it exits; delivered before the next Task's handler starts. */
  readonly onStateExited?: (name: string, output: unknown) => void;
  /**
   * Milliseconds to wait in the named Wait states instead of what the definition says (tests).
   * @default - Wait states wait as long as the definition says
   */
  readonly waitTimeOverrides?: Readonly<Record<string, number>>;
  /**
   * Milliseconds between retries of the named states instead of `IntervalSeconds`/backoff (tests).
   * @default - retries wait as the definition says
   */
  readonly retryIntervalOverrides?: Readonly<Record<string, number | number[]>>;
  /**
   * `$$.StateMachine.Id`; a continue-as-new must start this ARN.
   * @default 'arn:aws:states:local:000000000000:stateMachine:local'
   */
  readonly stateMachineArn?: string;
  /**
   * Models Step Functions' Redrive of an execution that did not succeed: the first execution
   * starts at `fromState` with `input` as that state's input, and `$$.Execution.RedriveCount` is
   * 1 (0 otherwise, as for any execution never redriven).
   * (https://docs.aws.amazon.com/step-functions/latest/dg/redrive-executions.html)
   * @default - a new execution, from the definition's `StartAt`
   */
  readonly redrive?: RedriveRequest;
  /**
   * Validate the definition with `asl-validator` before running. It costs several hundred
   * milliseconds per run, so a caller that already validated the same (cached) template may
   * pass `false`.
   * @default true
   */
  readonly validate?: boolean;
  /**
   * Name of the first execution (`$$.Execution.Name`).
   * @default - a random UUID
   */
  readonly executionName?: string;
  /**
   * Runs the children of `states:startExecution.sync` Tasks (shared by every execution of one
   * local run, so a retried start of the same name is seen as such).
   * @default - a definition with a `.sync` Task is refused with `TaskBindingError`
   */
  readonly childExecutions?: ChildExecutionStarter;
  /**
   * The S3 a Distributed Map's `ItemReader` reads and its `ResultWriter` writes: locally, the
   * plan store the handlers use (its bucket is the definition's `Bucket`).
   * @default - a Distributed Map that reads or writes S3 is refused with `TaskBindingError`
   */
  readonly objectStore?: LocalObjectStore;
  /** Called as each execution of the chain ends (a `.sync` parent waits for the first only, as on AWS). */
  readonly onExecutionEnded?: (execution: ExecutionSummary) => void;
  /**
   * Called as each item execution of a Distributed Map ends, with its own stats: they are not
   * part of the parent's (each item has its own history, as on AWS).
   */
  readonly onItemExecutionEnded?: (item: ItemExecutionSummary) => void;
}

/**
 * Starts the child of a `states:startExecution.sync` Task and waits for it (`LocalChildExecutions`
 * in child-executions.ts is the engine's).
 */
export interface ChildExecutionStarter {
  /**
   * @param parameters the Task's resolved `Parameters` (`StateMachineArn`, `Name`, `Input`)
   * @param version 2 for `.sync:2` (Input and Output as JSON), 1 for `.sync`
   * @param signal aborted when the parent stops (the child is stopped too)
   * @returns DescribeExecution's response; throws the Task's failure when the child did not succeed
   */
  startSync(parameters: unknown, version: 1 | 2, signal: AbortSignal): Promise<Record<string, unknown>>;
  /**
   * `aws-sdk:sfn:describeExecution` of a child or of an execution a child continued in.
   * @param parameters the Task's resolved `Parameters` (`ExecutionArn`)
   * @returns the SDK's response (`Input`/`Output` as strings); throws `Sfn.ExecutionDoesNotExistException` for any other ARN
   */
  describe(parameters: unknown): Record<string, unknown>;
}

/** The S3 objects a Distributed Map reads and writes, as JSON documents by key (a `PlanStore` is one). */
export interface LocalObjectStore {
  get(key: string): Promise<unknown>;
  put(key: string, value: unknown): Promise<void>;
}

/** One item execution of a Distributed Map, once it ended. */
export interface ItemExecutionSummary extends ExecutionSummary {
  readonly mapRunArn: string;
  /** The item's input (`ItemSelector`'s result). */
  readonly input: unknown;
  /** The item's place in the item list, from 0 (`$$.Map.Item.Index`). */
  readonly index: number;
}

/** How a run ended. An execution timeout (`TimeoutSeconds`) is `FAILED` with `States.Timeout`. */
export type ExecutionStatus = 'SUCCEEDED' | 'FAILED' | 'ABORTED';

/** Where a redriven execution goes on: the state that did not succeed. */
export interface RedriveRequest {
  readonly fromState: string;
}

/** One execution of a continue-as-new chain. */
export interface ExecutionSummary {
  readonly executionArn: string;
  readonly name: string;
  readonly status: ExecutionStatus;
  readonly output?: unknown;
  readonly error?: string;
  readonly cause?: string;
  readonly stats: ExecutionStats;
}

/** The end of a run (of the last execution, for a chain). */
export interface ExecutionResult {
  readonly status: ExecutionStatus;
  readonly output?: unknown;
  /** The ASL error name: `States.TaskFailed`, a handler error's `name`, a Fail state's `Error`. */
  readonly error?: string;
  readonly cause?: string;
  /** Counters over the whole chain. */
  readonly stats: ExecutionStats;
  /** Every execution run, in order. */
  readonly executions: readonly ExecutionSummary[];
}

/** A running local execution. */
export interface LocalExecution {
  /** Stops the run at once: pending waits end, handlers see their signal aborted. */
  abort(): void;
  /** Settles when the run (the whole continue-as-new chain) ends; rejects only on engine bugs or callback errors. */
  readonly result: Promise<ExecutionResult>;
}
