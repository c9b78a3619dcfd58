/**
 * Steps run before the local engine started (plan-first.ts), handed to it: the Task states they
 * ran answer their first invocation with what was made, so nothing runs twice.
 */
import { executionArn } from './private/placeholders';
import type { TaskHandler } from './types';

/** What a Task's first invocation answers: its result, or the error it threw. */
export type MadeOutcome = { readonly output: unknown } | { readonly error: unknown };

/** Steps already run for the engine's first execution. */
export interface MadeSteps {
  /** `$$.Execution.Name` the steps ran under: the first execution takes it. */
  readonly executionName: string;
  /** `$$.Execution.Id` they were given: the engine's first execution must have it. */
  readonly executionId: string;
  /** The first invocation of each named Task answers with this instead of running its handler. */
  readonly outcomes: ReadonlyMap<string, MadeOutcome>;
}

/**
 * `handler`, whose first invocation answers with `outcome` instead (a step made before the engine
 * started): the state's later invocations (a Retry after a made error) run the handler.
 */
export function answeringMade(
  handler: TaskHandler | undefined,
  outcome: MadeOutcome | undefined,
): TaskHandler | undefined {
  if (handler === undefined || outcome === undefined) return handler;
  let made: MadeOutcome | undefined = outcome;
  return async (payload, ctx) => {
    const first = made;
    made = undefined;
    if (first === undefined) return handler(payload, ctx);
    if ('error' in first) throw first.error;
    return first.output;
  };
}

/**
 * Refuses steps made for another state machine's execution: their run id (the lock's holder, the
 * record's key) would not be the execution's own `$$.Execution.Id`, as it always is on AWS.
 */
export function refuseMadeElsewhere(made: MadeSteps, stateMachineArn: string): void {
  if (executionArn(stateMachineArn, made.executionName) !== made.executionId)
    throw new Error(`Steps made as ${made.executionId} cannot run as an execution of ${stateMachineArn}`);
}
