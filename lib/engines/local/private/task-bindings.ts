/**
 * Binds every Task state of the definition to what runs it locally (a Lambda handler, a task-token
 * answerer, continue-as-new), checked before the run so an unbound state fails early.
 */
import { randomUUID } from 'node:crypto';
import { TaskBindingError } from '../errors';
import { describeTaskStates, type TaskStateInfo } from '../task-states';
import type { TaskHandler, TaskHandlerContext, TaskHandlerResolver, TaskTokenAnswerer } from '../types';
import { EngineRuntimeFailure, TaskFailure } from './task-failures';
import type { TaskTokens } from './task-tokens';

/** A Task state and what runs it. */
export interface BoundTask {
  readonly info: TaskStateInfo;
  readonly handler?: TaskHandler;
  /** The state's static `TimeoutSeconds`, in ms: the handler's signal aborts then. */
  readonly timeoutMs?: number;
}

/** What the handlers of one execution share. */
export interface ExecutionDeps {
  readonly signal: AbortSignal;
  readonly tokens: TaskTokens;
  readonly answerTaskToken?: TaskTokenAnswerer;
  /** Runs a `states:startExecution` Task (continue-as-new); returns the state's result. */
  readonly startExecution: (parameters: unknown) => unknown;
  /** Runs a `states:startExecution.sync` Task's child to its end; returns the state's result. */
  readonly startExecutionSync: (parameters: unknown, version: 1 | 2, signal: AbortSignal) => Promise<unknown>;
  /** Answers an `aws-sdk:sfn:describeExecution` Task from the child executions; returns the state's result. */
  readonly describeExecution: (parameters: unknown) => unknown;
  /** Runs the map run of a Distributed Map state (rewritten to a Task); returns the state's result. */
  readonly runDistributedMap: (
    stateName: string,
    parameters: unknown,
    signal: AbortSignal,
  ) => Promise<unknown>;
}

/** Integrations the engine carries out itself: no handler is bound to them. */
const ENGINE_INTEGRATIONS: ReadonlySet<string> = new Set([
  'start-execution',
  'start-execution-sync',
  'describe-execution',
  'distributed-map',
]);

/** A local handler as aws-local-stepfunctions calls it: the state's effective input in, its result out. */
export type EngineTaskHandler = (input: unknown) => Promise<unknown>;

/**
 * Binds every Task state to a handler, refusing the definition before anything runs when a
 * state has none (or a callback state has no answerer).
 * @throws TaskBindingError listing every unbound state
 */
export function bindTasks(
  definition: object,
  taskTimeoutsMs: ReadonlyMap<string, number>,
  resolver: TaskHandlerResolver,
  answerer: TaskTokenAnswerer | undefined,
): Map<string, BoundTask> {
  const bound = new Map<string, BoundTask>();
  const problems: string[] = [];
  for (const info of describeTaskStates(definition)) {
    const byEngine = ENGINE_INTEGRATIONS.has(info.integration);
    const handler = byEngine ? undefined : resolver(info);
    if (info.waitForTaskToken && answerer === undefined) {
      problems.push(
        `"${info.stateName}" (${info.resource}) waits for a task token but no answerTaskToken was given`,
      );
    } else if (!info.waitForTaskToken && !byEngine && handler === undefined) {
      const fn = info.functionLogicalId === undefined ? '' : `, function ${info.functionLogicalId}`;
      problems.push(`"${info.stateName}" (${info.resource}${fn}) has no local handler`);
    }
    const timeoutMs = taskTimeoutsMs.get(info.stateName);
    bound.set(info.stateName, {
      info,
      ...(handler === undefined ? {} : { handler }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
  }
  if (problems.length > 0) {
    throw new TaskBindingError(`cannot run the state machine locally: ${problems.join('; ')}`);
  }
  return bound;
}

/** Values cross a Lambda boundary as JSON: `undefined` becomes `null`, dates become strings. */
function asJson(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? null : (JSON.parse(text) as unknown);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The response of `arn:aws:states:::lambda:invoke`, shaped as Step Functions returns it. */
function lambdaInvokeResult(payload: unknown): Record<string, unknown> {
  return {
    ExecutedVersion: '$LATEST',
    Payload: payload,
    SdkHttpMetadata: {
      HttpHeaders: { 'Content-Type': 'application/json', 'X-Amz-Executed-Version': '$LATEST' },
      HttpStatusCode: 200,
    },
    SdkResponseMetadata: { RequestId: randomUUID() },
    StatusCode: 200,
  };
}

/**
 * Lets the event log consumer run (it is fed on microtasks) so that the callbacks for earlier
 * states are delivered before this state's handler starts printing or calling out.
 */
function afterPendingCallbacks(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * The state's `TimeoutSeconds`, mirrored so the handler's signal aborts when the engine times the
 * state out. It is started before the engine's own timer, so it fires first; the handler's
 * outcome is then dropped and the engine's `States.Timeout` decides the state.
 */
function startTimeout(timeoutMs: number | undefined) {
  const controller = new AbortController();
  const timer = timeoutMs === undefined ? undefined : setTimeout(() => controller.abort(), timeoutMs);
  return {
    signal: controller.signal,
    get fired() {
      return controller.signal.aborted;
    },
    clear: () => clearTimeout(timer),
  };
}

/** Never settles: lets the engine's own timeout win the race it runs against the handler. */
const engineTimeout = (): Promise<never> => new Promise<never>(() => undefined);

function engineHandler(task: BoundTask, deps: ExecutionDeps): EngineTaskHandler {
  const { info, handler } = task;
  const answer = deps.answerTaskToken;
  const call = async (
    input: unknown,
    taskToken: string | undefined,
    signal: AbortSignal,
  ): Promise<unknown> => {
    await afterPendingCallbacks();
    if (info.integration === 'start-execution') return deps.startExecution(input);
    if (info.integration === 'start-execution-sync')
      return deps.startExecutionSync(input, info.syncVersion ?? 1, signal);
    if (info.integration === 'describe-execution') return deps.describeExecution(input);
    if (info.integration === 'distributed-map') return deps.runDistributedMap(info.stateName, input, signal);
    const payload =
      info.integration === 'lambda-invoke' ? asJson(isRecord(input) ? (input['Payload'] ?? {}) : {}) : input;
    const ctx: TaskHandlerContext = {
      stateName: info.stateName,
      signal,
      ...(taskToken ? { taskToken } : {}),
    };
    if (taskToken !== undefined && answer !== undefined) {
      // On AWS the Lambda is invoked asynchronously and its return value is ignored: the
      // answer to the token is the state's result.
      if (handler !== undefined) await handler(payload, ctx);
      return asJson(await answer(payload, taskToken, { stateName: info.stateName, signal }));
    }
    const result = handler === undefined ? null : asJson(await handler(payload, ctx));
    return info.integration === 'lambda-invoke' ? lambdaInvokeResult(result) : result;
  };
  return async (input) => {
    // Synchronously first: the token was minted while the engine resolved this state's Parameters.
    const taskToken = info.waitForTaskToken ? deps.tokens.take() : undefined;
    const timeout = startTimeout(task.timeoutMs);
    try {
      const result = await call(input, taskToken, AbortSignal.any([deps.signal, timeout.signal]));
      return timeout.fired ? engineTimeout() : result;
    } catch (error) {
      if (timeout.fired) return engineTimeout();
      // Engine failures (continue-as-new misuse) keep their own retry/catch rules.
      if (error instanceof EngineRuntimeFailure) throw error;
      // A task-token answer's failure is SendTaskFailure's own error and cause; anything else
      // failed inside the function.
      const answered = taskToken !== undefined && answer !== undefined;
      const inFunction = info.integration === 'lambda-invoke' || info.integration === 'lambda-arn';
      throw inFunction && !answered ? TaskFailure.fromLambda(error) : TaskFailure.from(error);
    } finally {
      timeout.clear();
    }
  };
}

/** The `taskResourceLocalHandlers` of one execution, by state name. */
export function engineHandlers(
  tasks: ReadonlyMap<string, BoundTask>,
  deps: ExecutionDeps,
): Record<string, EngineTaskHandler> {
  const handlers: Record<string, EngineTaskHandler> = {};
  for (const [name, task] of tasks) handlers[name] = engineHandler(task, deps);
  return handlers;
}
