/**
 * The fleet's own events in a local fleet run: "Plan fleet" tells `fleet-planned` live and
 * "Summarize fleet" hands `fleet-finished` on in its output; the engine adds each job's
 * `job-started` and, from its item execution's end, `job-finished` (read by the summary's own
 * `jobEndOf` and worded by its `jobFinishedEvent`, as the AWS follower does, so the terminal, AWS
 * and the summary say the same).
 */
import type { FleetJobName } from '../../fleet/events';
import { type FleetJobEnd, jobEndOf } from '../../fleet/job-end';
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

/** How the job of an item execution ended, read as the summary reads the ResultWriter's entry for it. */
export function jobEndOfItem(item: ItemExecutionSummary): FleetJobEnd {
  return jobEndOf(resultEntryOf(item));
}
