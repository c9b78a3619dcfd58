/**
 * The fleet state machine's Lambda Tasks bound to their handlers (`lambdas/<id>.ts`) for the local
 * fleet engine (fleet-engine.ts), each run through the same middy chain and budget as on Lambda.
 */

import type { FleetEvent } from '../../fleet/events';
import { FleetTaskStates } from '../../workflow/fleet-state-names';
import { type LocalRestartRequest, localInvocation } from './engine';
import { createGate, lambdaTaskHandler } from './lambda-tasks';
import type { LocalStateMachine } from './local-definition';
import type { TaskHandler } from './types';

/** The fleet's Lambda Tasks and their handlers (`lambdas/<id>.ts`). */
const FLEET_TASK_HANDLERS: Readonly<Record<string, string>> = {
  [FleetTaskStates.planFleet]: 'plan-fleet',
  [FleetTaskStates.summarizeFleet]: 'summarize-fleet',
};

/** What the binding reads of a local fleet request (`LocalFleetRequest`'s fields). */
export type FleetTaskSettings = Pick<
  LocalRestartRequest,
  | 'nomad'
  | 'consul'
  | 'alarms'
  | 'now'
  | 'sleep'
  | 'invocationBudgetMs'
  | 'invocationBudgetsMs'
  | 'interceptInvocation'
> & {
  /** Sees the fleet's own events as its steps tell them. */
  readonly emit: (event: FleetEvent) => void;
};

/** The handler of each of `fleet`'s Lambda Tasks (`undefined` for any other Task), for `request`. */
export function fleetTaskHandlers(
  request: FleetTaskSettings,
  fleet: LocalStateMachine,
): (state: { stateName: string; functionLogicalId?: string }) => TaskHandler | undefined {
  const gate = createGate();
  return (state) => {
    const id = FLEET_TASK_HANDLERS[state.stateName];
    if (id === undefined) return undefined;
    const budgetMs =
      request.invocationBudgetsMs?.[state.stateName] ??
      request.invocationBudgetMs ??
      fleet.functionTimeoutsMs[state.functionLogicalId ?? ''] ??
      15 * 60 * 1000;
    return lambdaTaskHandler(id, state.stateName, budgetMs, {
      gate,
      // The fleet's own steps tell fleet events (fleet-planned, live); no one-job event.
      invocation: { ...localInvocation(request, () => {}), fleetEvents: request.emit },
      intercept: request.interceptInvocation ?? ((_state, invoke) => invoke()),
      prepare: async () => {},
    });
  };
}
