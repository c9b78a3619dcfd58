/**
 * A fleet execution's history read as the fleet's own events (`lib/workflow/fleet-definition.ts`):
 * "Plan fleet" says what will restart (its state's counts: the skipped jobs themselves are in the
 * plan store), the Distributed Map's `MapRunStarted` names the map run whose item executions start
 * each job, "Summarize fleet" says how the run ended (the events its result carries). The parent's history
 * holds nothing per job; the jobs' own lines come from their executions (`follow-fleet.ts`).
 *
 * Pure: it is fed history events, oldest first, each once.
 */
import type { HistoryEvent } from '@aws-sdk/client-sfn';
import type { FleetEvent } from '../../fleet/events';
import { summaryEventsOf } from '../../fleet/summary-events';
import type { ExecutionEnding } from '../../workflow/exit-status';
import { type FleetState, FleetTaskStates } from '../../workflow/fleet-state-names';

/** A state's output, decoded; `undefined` when it is not JSON. */
function outputOf(event: HistoryEvent): unknown {
  const text = event.stateExitedEventDetails?.output;
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Follows one fleet execution's history. */
export class FleetTracker {
  /** The Distributed Map's run, once it started. */
  public mapRunArn: string | undefined;
  /** How the execution ended, once it did. */
  public end: ExecutionEnding | undefined;
  /** The plan's budget and shared options, once "Plan fleet" ran. */
  public plan: FleetState | undefined;

  /** Applies one history event; returns the fleet events it carries. */
  public apply(event: HistoryEvent): FleetEvent[] {
    const time = event.timestamp?.getTime() ?? Date.now();
    const name = event.stateExitedEventDetails?.name;
    if (event.type === 'TaskStateExited' && name === FleetTaskStates.planFleet) {
      const state = outputOf(event) as FleetState | undefined;
      if (state?.plan === undefined) return [];
      this.plan = state;
      // The skipped jobs themselves are in the plan store; the terminal prints the counts.
      return [
        {
          type: 'fleet-planned',
          time,
          jobs: state.plan.jobs,
          allocations: state.plan.allocations,
          skipped: [],
          namespaces: state.plan.namespaces,
          ...(state.plan.consumers === undefined ? {} : { consumers: state.plan.consumers }),
          ...(state.plan.variables === undefined ? {} : { variables: state.plan.variables }),
        },
      ];
    }
    if (event.type === 'TaskStateExited' && name === FleetTaskStates.summarizeFleet) {
      // "Summarize fleet" tells its own events (`fleet-finished`) in its result, as a one-job step does.
      return summaryEventsOf(outputOf(event));
    }
    if (event.type === 'MapRunStarted') {
      this.mapRunArn = event.mapRunStartedEventDetails?.mapRunArn ?? this.mapRunArn;
      return [];
    }
    this.end ??= endingOf(event);
    return [];
  }
}

/** The execution's end, when `event` is one. */
function endingOf(event: HistoryEvent): ExecutionEnding | undefined {
  switch (event.type) {
    case 'ExecutionSucceeded': {
      const text = event.executionSucceededEventDetails?.output;
      let output: unknown;
      try {
        output = text === undefined ? undefined : JSON.parse(text);
      } catch {
        output = undefined;
      }
      return { status: 'SUCCEEDED', output };
    }
    case 'ExecutionFailed': {
      const d = event.executionFailedEventDetails;
      return { status: 'FAILED', error: d?.error ?? '', cause: d?.cause ?? '' };
    }
    case 'ExecutionAborted': {
      const d = event.executionAbortedEventDetails;
      return { status: 'ABORTED', error: d?.error ?? '', cause: d?.cause ?? '' };
    }
    case 'ExecutionTimedOut': {
      const d = event.executionTimedOutEventDetails;
      return { status: 'TIMED_OUT', error: d?.error ?? '', cause: d?.cause ?? '' };
    }
    default:
      return undefined;
  }
}
