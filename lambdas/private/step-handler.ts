/**
 * The one middleware chain of the handlers, in the order every handler uses it: the Powertools
 * logger's Lambda context first, then the redrive guard (which unwraps the state), the Nomad client, the lease renewal, the workflow's error
 * names, the state's budgets, and last the run's metrics (middy runs `after` hooks in reverse:
 * the metrics see the step's events first, then the budgets cut them). Each handler says which links it needs; a handler is then a function that decodes
 * its event, calls its step and builds its result.
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy, { type MiddlewareObj, type MiddyfiedHandler } from '@middy/core';
import type { Context } from 'aws-lambda';
import type { HandlerId } from '../../lib/workflow/state-names';
import { leaseMiddleware } from './lease-middleware';
import { logger } from './logger';
import { nomadClientMiddleware } from './nomad-client-middleware';
import { redriveGuardMiddleware } from './redrive-guard-middleware';
import { runMetricsMiddleware } from './run-metrics-middleware';
import { type ProgressPoint, runProgressMiddleware } from './run-progress-middleware';
import { stateBudgetMiddleware } from './state-budget-middleware';
import { workflowErrorsMiddleware } from './workflow-errors-middleware';

/** Which links of the chain a handler needs. */
export interface StepHandlerOptions {
  /**
   * Attaches a Nomad client (`nomadClientOf(context)`). Only these handlers read the token's
   * secret: one without a client (input validation, the question) never touches it.
   * @default false
   */
  readonly nomad?: boolean;
  /**
   * Re-throws errors under the names the state machine's `Retry` and `Catch` match on
   * (`workflowErrorsMiddleware`). Off for the handlers no state invokes (EventBridge, streams, the
   * approval URL).
   * @default true
   */
  readonly workflowErrors?: boolean;
  /**
   * The handler returns the next workflow state: its history events are charged and its event
   * lists fitted to their budgets (`stateBudgetMiddleware`).
   * @default - the result is not a workflow state
   */
  readonly state?: HandlerId;
  /** With `state`: the first step of a continued execution starts the history estimate again. @default false */
  readonly freshHistory?: boolean;
  /** Renews the run's leases once the step returned (`leaseMiddleware`); needs `nomad`. @default false */
  readonly renewsLease?: boolean;
  /**
   * Records the run's progress (the handler returns the next workflow state) for its live chat thread once the step returned
   * (`runProgressMiddleware`), after every other link has shaped the state.
   * @default - records nothing
   */
  readonly recordsProgress?: ProgressPoint;
}

type AnyMiddleware = MiddlewareObj<unknown, unknown, Error, Context>;

/** `handler` wrapped in the handlers' middleware chain, with the links `options` ask for. */
export function stepHandler<TEvent = unknown, TResult = unknown>(
  handler: (event: TEvent, context: Context) => Promise<TResult>,
  options: StepHandlerOptions = {},
): MiddyfiedHandler<TEvent, TResult, Error, Context> {
  const chain: AnyMiddleware[] = [injectLambdaContext(logger) as AnyMiddleware];
  // First in the chain, so its `after` runs last: it records the state the step hands on.
  if (options.recordsProgress !== undefined) chain.push(runProgressMiddleware(options.recordsProgress));
  // Before the Nomad client: a redriven execution is refused before any secret or Nomad call.
  if (options.workflowErrors !== false) chain.push(redriveGuardMiddleware());
  if (options.nomad === true) chain.push(nomadClientMiddleware());
  if (options.renewsLease === true) chain.push(leaseMiddleware());
  if (options.workflowErrors !== false) chain.push(workflowErrorsMiddleware());
  if (options.state !== undefined)
    chain.push(stateBudgetMiddleware(options.state, { fresh: options.freshHistory === true }));
  // Last, so its `after` runs first: the run's metrics from the step's whole event list.
  chain.push(runMetricsMiddleware());
  return middy<TEvent, TResult, Error, Context>().use(chain).handler(handler);
}
