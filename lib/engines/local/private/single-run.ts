/**
 * Runs one execution of a continue-as-new chain in aws-local-stepfunctions and gathers its stats.
 */
import { ExecutionError, ExecutionTimeoutError, type StateMachine } from 'aws-local-stepfunctions';
import { type EngineEvent, type ExecutionStats, limitFailureOf, StatsRecorder } from '../stats';
import type { ExecutionStatus, RunLocalExecutionOptions, TaskTokenAnswerer } from '../types';
import { type BoundTask, type ExecutionDeps, engineHandlers } from './task-bindings';
import { TaskTokens } from './task-tokens';

type RunInput = Parameters<StateMachine['run']>[0];
type RunContext = NonNullable<NonNullable<Parameters<StateMachine['run']>[1]>['context']>;

/** One execution to run. */
export interface SingleRunOptions {
  readonly machine: StateMachine;
  /** `$$.Execution.RedriveCount`: 1 for a redriven execution, else 0. */
  readonly redriveCount: number;
  readonly tasks: ReadonlyMap<string, BoundTask>;
  readonly input: unknown;
  readonly executionArn: string;
  readonly executionName: string;
  readonly stateMachineArn: string;
  readonly signal: AbortSignal;
  readonly answerTaskToken?: TaskTokenAnswerer;
  /** Runs a `states:startExecution` Task; returns the state's result. */
  readonly startExecution: (parameters: unknown) => unknown;
  readonly startExecutionSync: ExecutionDeps['startExecutionSync'];
  readonly describeExecution: ExecutionDeps['describeExecution'];
  readonly runDistributedMap: ExecutionDeps['runDistributedMap'];
  readonly callbacks: Pick<RunLocalExecutionOptions, 'onStateEntered' | 'onStateExited'>;
  readonly overrides: Pick<RunLocalExecutionOptions, 'waitTimeOverrides' | 'retryIntervalOverrides'>;
}

/** How one execution ended. */
export interface SingleRunResult {
  readonly status: ExecutionStatus;
  readonly output?: unknown;
  readonly error?: string;
  readonly cause?: string;
  readonly stats: ExecutionStats;
}

/**
 * History events of one Task attempt: `Scheduled`, `Started`, `Succeeded|Failed`, and
 * `Submitted` for callbacks and started executions. A Distributed Map (run as a Task) writes
 * `MapStateStarted`, `MapRunStarted`, `MapRunSucceeded|Failed` and `MapStateSucceeded|Failed`:
 * its items' events are in their own executions' histories, never in the parent's.
 */
function attemptEventsOf(tasks: ReadonlyMap<string, BoundTask>) {
  return (stateName: string): number => {
    const info = tasks.get(stateName)?.info;
    if (info?.integration === 'distributed-map') return 4;
    const submitted = info?.waitForTaskToken || info?.integration?.startsWith('start-execution');
    return submitted ? 4 : 3;
  };
}

/** The type a state has in the definition: a Distributed Map runs as a Task but is reported as the Map it is. */
function stateTypeOf(tasks: ReadonlyMap<string, BoundTask>, name: string, type: string): string {
  return tasks.get(name)?.info.integration === 'distributed-map' ? 'Map' : type;
}

function failureOf(error: unknown): { error: string; cause: string } {
  if (error instanceof ExecutionTimeoutError) {
    return { error: 'States.Timeout', cause: 'The execution ran longer than its TimeoutSeconds' };
  }
  if (error instanceof ExecutionError && error.cause instanceof Error) {
    return { error: error.cause.name, cause: error.cause.message };
  }
  // Anything else is a bug in the engine or in this adapter, not a workflow failure.
  throw error;
}

/** Runs one execution of the state machine to its end (or abort). */
export async function runSingleExecution(opts: SingleRunOptions): Promise<SingleRunResult> {
  const tokens = new TaskTokens();
  const recorder = new StatsRecorder(attemptEventsOf(opts.tasks));
  const machineName = opts.stateMachineArn.split(':').at(-1) ?? 'local';
  const context: RunContext = {
    Execution: { Id: opts.executionArn, Name: opts.executionName, RedriveCount: opts.redriveCount },
    StateMachine: { Id: opts.stateMachineArn, Name: machineName },
    Task: tokens.contextTask,
  };
  const execution = opts.machine.run(JSON.parse(JSON.stringify(opts.input ?? null)) as RunInput, {
    noThrowOnAbort: true,
    context,
    overrides: {
      taskResourceLocalHandlers: engineHandlers(opts.tasks, {
        signal: opts.signal,
        tokens,
        startExecution: opts.startExecution,
        startExecutionSync: opts.startExecutionSync,
        describeExecution: opts.describeExecution,
        runDistributedMap: opts.runDistributedMap,
        ...(opts.answerTaskToken === undefined ? {} : { answerTaskToken: opts.answerTaskToken }),
      }) as never,
      ...(opts.overrides.waitTimeOverrides
        ? { waitTimeOverrides: { ...opts.overrides.waitTimeOverrides } }
        : {}),
      ...(opts.overrides.retryIntervalOverrides
        ? { retryIntervalOverrides: { ...opts.overrides.retryIntervalOverrides } }
        : {}),
    },
  });

  let aborted = false;
  const onAbort = () => {
    aborted = true;
    execution.abort();
  };
  if (opts.signal.aborted) onAbort();
  opts.signal.addEventListener('abort', onAbort, { once: true });

  let callbackError: { error: unknown } | undefined;
  // Never kinder than AWS: past a Step Functions limit the execution ends there, as it would.
  let overLimit: { error: string; cause: string } | undefined;
  const consumer = (async () => {
    for await (const event of execution.eventLogs as AsyncGenerator<EngineEvent>) {
      recorder.record(event);
      if (overLimit === undefined) {
        overLimit = limitFailureOf(recorder.limited());
        if (overLimit !== undefined) onAbort();
      }
      if (callbackError !== undefined || event.state === undefined) continue;
      try {
        if (event.type === 'StateEntered')
          opts.callbacks.onStateEntered?.(
            event.state.name,
            stateTypeOf(opts.tasks, event.state.name, event.state.type),
          );
        if (event.type === 'StateExited')
          opts.callbacks.onStateExited?.(event.state.name, event.state.output);
      } catch (error) {
        callbackError = { error };
        onAbort();
      }
    }
  })();

  let ending: Omit<SingleRunResult, 'stats'>;
  try {
    const output = await execution.result;
    ending = aborted ? { status: 'ABORTED' } : { status: 'SUCCEEDED', output };
  } catch (error) {
    ending = { status: 'FAILED', ...failureOf(error) };
  } finally {
    opts.signal.removeEventListener('abort', onAbort);
  }
  await consumer;
  if (callbackError !== undefined) throw callbackError.error;
  if (overLimit !== undefined) ending = { status: 'FAILED', ...overLimit };
  return { ...ending, stats: recorder.snapshot() };
}
