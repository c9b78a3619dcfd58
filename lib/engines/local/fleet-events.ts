/**
 * The fleet's own events in a local fleet run: "Plan fleet" tells `fleet-planned` live and
 * "Summarize fleet" hands `fleet-finished` on in its output; the engine adds each job's
 * `job-started` and, from its item execution's end, `job-finished` (worded by the summary's own
 * `jobEndOf`/`problemText`, so the terminal and the summary say the same).
 */
import type { FleetEvent, FleetJobName } from '../../fleet/events';
import { jobEndOf } from '../../fleet/job-end';
import { problemText } from '../../fleet/reasons';
import type { RestartInput } from '../../restart/input';
import type { FleetState } from '../../workflow/fleet-state-names';
import type { ItemExecutionSummary } from './types';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The fleet's state as "Plan fleet" hands it on, or `undefined` for any other output. */
export function fleetStateOf(output: unknown): FleetState | undefined {
  return isObject(output) && isObject(output['plan']) && isObject(output['budget'])
    ? (output as unknown as FleetState)
    : undefined;
}

/** The job a one-job execution started by the fleet restarts, and its place in the fleet. */
export function jobOf(input: unknown): FleetJobName & { index: number; of: number } {
  const child = (isObject(input) ? input : {}) as Partial<RestartInput> & {
    fleet?: { index?: number; of?: number };
  };
  return {
    namespace: child.namespace ?? 'default',
    job: child.job ?? '',
    index: child.fleet?.index ?? 0,
    of: child.fleet?.of ?? 0,
  };
}

/** An item execution as the ResultWriter records it (`Input`/`Output` as JSON strings). */
function resultEntryOf(item: ItemExecutionSummary) {
  const status = item.status === 'FAILED' && item.error === 'States.Timeout' ? 'TIMED_OUT' : item.status;
  return {
    ExecutionArn: item.executionArn,
    Status: status,
    Input: JSON.stringify(item.input),
    ...(item.status === 'SUCCEEDED' ? { Output: JSON.stringify(item.output ?? null) } : {}),
    ...(item.error === undefined ? {} : { Error: item.error }),
    ...(item.cause === undefined ? {} : { Cause: item.cause }),
  };
}

/** `job-finished`, from the job's item execution as it ended. */
export function jobFinishedEvent(
  item: ItemExecutionSummary,
  budget: { readonly maxFailedJobs: number },
  time: number,
): Extract<FleetEvent, { type: 'job-finished' }> {
  const end = jobEndOf(resultEntryOf(item));
  return {
    type: 'job-finished',
    time,
    namespace: end.namespace,
    job: end.job,
    outcome: end.outcome,
    ...(end.problem === undefined ? {} : { reason: problemText(end.problem, budget) }),
    ...(end.executionArn === undefined ? {} : { executionArn: end.executionArn }),
  };
}

/**
 * The events "Summarize fleet" hands on in its output (`$.summary.events`: its `fleet-finished`),
 * or none for any other output.
 */
export function summaryEventsOf(output: unknown): FleetEvent[] {
  const summary = isObject(output) ? output['summary'] : undefined;
  const events = isObject(summary) ? summary['events'] : undefined;
  return Array.isArray(events) ? (events as FleetEvent[]) : [];
}
