/**
 * Keeps the state a step returns within Step Functions' limits: it carries the execution's
 * estimate of history events (`progress.historyEvents`, lib/workflow/history-budget.ts), so the
 * graph continues as new before the 25,000-event limit, and its event lists within their byte
 * budgets (lib/workflow/state-bytes.ts), the whole lists in the plan store.
 */
import type { MiddlewareObj, Request } from '@middy/core';
import type { Context } from 'aws-lambda';
import type { ProgressEvent } from '../../lib/restart/events';
import { planStoreFromEnv } from '../../lib/stores/from-env';
import { planKeys } from '../../lib/stores/plan-keys';
import { historyEventsOf } from '../../lib/workflow/history-budget';
import type { Progress, WorkflowState } from '../../lib/workflow/payloads';
import { type EventsElsewhere, fitToBytes } from '../../lib/workflow/state-bytes';
import type { HandlerId } from '../../lib/workflow/state-names';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function eventsSoFar(event: unknown): number {
  const progress = (event as { progress?: Partial<Progress> | null } | null)?.progress;
  const count = progress?.historyEvents;
  return typeof count === 'number' && Number.isFinite(count) ? count : 0;
}

/** Adds this invocation's events to the estimate, counting on from the step's input whatever the step returns. */
function chargeHistory(
  state: Mutable<WorkflowState>,
  event: unknown,
  handler: HandlerId,
  fresh: boolean,
): void {
  if (state.progress === null || state.progress === undefined) return;
  const before = fresh ? 0 : eventsSoFar(event);
  state.progress = { ...state.progress, historyEvents: before + historyEventsOf(handler) };
}

/** Cuts the event lists to their budgets; each whole list goes to the plan store first. */
async function fitEventLists(state: Mutable<WorkflowState>, requestId: string): Promise<void> {
  const elsewhere: Partial<Record<'events' | 'planEvents', EventsElsewhere>> = {};
  for (const field of ['events', 'planEvents'] as const) {
    const list: ProgressEvent[] | undefined = state[field];
    if (!Array.isArray(list)) continue;
    const { kept, omitted } = fitToBytes(list);
    if (omitted === 0) continue;
    const key = planKeys.asideEvents(state.run.runId, requestId, field);
    await planStoreFromEnv().put(key, list);
    state[field] = kept;
    elsewhere[field] = { key, omitted };
  }
  // A step's result replaces the last one's: a note about earlier lists would mislead.
  delete state.eventsElsewhere;
  if (Object.keys(elsewhere).length > 0) state.eventsElsewhere = elsewhere;
}

/**
 * middy middleware for the handlers that return the next workflow state. `fresh` starts the
 * history estimate again (the first step of a continued execution).
 */
export function stateBudgetMiddleware(
  handler: HandlerId,
  opts: { readonly fresh?: boolean } = {},
): MiddlewareObj<unknown, unknown, Error, Context> {
  const stateBudgetMiddlewareAfter = async (request: Request<unknown, unknown, Error, Context>) => {
    const state = request.response as Mutable<WorkflowState> | null | undefined;
    if (state === null || state === undefined || typeof state !== 'object' || state.run === undefined) return;
    chargeHistory(state, request.event, handler, opts.fresh === true);
    await fitEventLists(state, request.context.awsRequestId);
  };
  return { after: stateBudgetMiddlewareAfter };
}
