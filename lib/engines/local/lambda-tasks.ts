/**
 * What binds a Task state to its `lambdas/<id>.ts` handler in a local run (through its middy
 * chain, as the Lambda runs it), and the gate that holds new Tasks back while a question about
 * an interrupt is open. Shared by the one-job and the fleet engines.
 */
import type { Context } from 'aws-lambda';
import { type LocalInvocation, withLocalInvocation } from '../../steps/kit/local-invocation';
import { withinFunctionTimeout } from './function-timeout';
import { lambdaContext } from './lambda-context';
import type { TaskHandler } from './types';

type LambdaHandler = (event: unknown, context: Context) => Promise<unknown>;
const handlerCache = new Map<string, Promise<LambdaHandler>>();

/** The exported middy handler of `lambdas/<id>.ts`, imported once. */
function lambdaHandler(id: string): Promise<LambdaHandler> {
  let handler = handlerCache.get(id);
  if (handler === undefined) {
    handler = import(`../../../lambdas/${id}.ts`).then((m: { handler: LambdaHandler }) => m.handler);
    handlerCache.set(id, handler);
  }
  return handler;
}

/** Wraps one invocation of a Task's handler (tests: a Lambda that dies after doing its work). */
export type InvocationInterceptor = (stateName: string, invoke: () => Promise<unknown>) => Promise<unknown>;

/** How the Tasks of one local run invoke their handlers. */
export interface LambdaTaskOptions {
  readonly gate: Gate;
  readonly invocation: LocalInvocation;
  readonly intercept: InvocationInterceptor;
  /** Runs before each invocation (the one-job engine: the shared lock's lease). */
  readonly prepare: (stateName: string) => Promise<void>;
}

/** Runs Task `stateName` with `lambdas/<id>.ts`, within `budgetMs` as the function's timeout would. */
export function lambdaTaskHandler(
  id: string,
  stateName: string,
  budgetMs: number,
  options: LambdaTaskOptions,
): TaskHandler {
  return async (payload) => {
    await options.gate.passed();
    await options.prepare(stateName);
    const handler = await lambdaHandler(id);
    const invoke = () =>
      withinFunctionTimeout(
        handler(payload, withLocalInvocation(lambdaContext(id, budgetMs), options.invocation)),
        budgetMs,
      );
    return options.intercept(stateName, invoke);
  };
}

/** The settings of a local run its handlers are handed (each absent one: as on Lambda). */
export type InvocationSettings = {
  readonly [K in 'nomad' | 'consul' | 'alarms' | 'now' | 'sleep' | 'metricLines' | 'engine']?:
    | LocalInvocation[K]
    | undefined;
};

/** What each handler invocation of a local run is handed on its context. */
export function localInvocation(
  request: InvocationSettings,
  liveEvents: LocalInvocation['liveEvents'],
): LocalInvocation {
  return {
    liveEvents,
    ...(request.nomad === undefined ? {} : { nomad: request.nomad }),
    ...(request.consul === undefined ? {} : { consul: request.consul }),
    ...(request.alarms === undefined ? {} : { alarms: request.alarms }),
    ...(request.now === undefined ? {} : { now: request.now }),
    ...(request.sleep === undefined ? {} : { sleep: request.sleep }),
    ...(request.metricLines === undefined ? {} : { metricLines: request.metricLines }),
    ...(request.engine === undefined ? {} : { engine: request.engine }),
  };
}

/** Holds Tasks back while closed (the interrupt question is open): no new work starts. */
export interface Gate {
  close(): void;
  open(): void;
  passed(): Promise<void>;
}

export function createGate(): Gate {
  let opened: Promise<void> | undefined;
  let release = () => {};
  return {
    close: () => {
      opened ??= new Promise((resolve) => {
        release = resolve;
      });
    },
    open: () => {
      opened = undefined;
      release();
    },
    passed: async () => {
      while (opened) await opened;
    },
  };
}
