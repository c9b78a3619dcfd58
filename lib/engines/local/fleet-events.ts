/**
 * The fleet's own events, as a local fleet run derives them from what its states hand on: the
 * plan's state ("Plan fleet"), each item execution's end (worded by the summary's own
 * `jobEndOf`/`problemText`, so the terminal and the summary say the same), the summary.
 */
import type { FleetEvent, FleetJobName } from '../../fleet/events';
import { jobEndOf } from '../../fleet/job-end';
import { problemText } from '../../fleet/reasons';
import type { FleetSummary } from '../../fleet/summary';
import type { RestartInput } from '../../restart/input';
import type { FleetState } from '../../workflow/fleet-state-names';
import type { ItemExecutionSummary } from './types';

type Planned = Extract<FleetEvent, { type: 'fleet-planned' }>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The fleet's state as "Plan fleet" hands it on, or `undefined` for any other output. */
export function fleetStateOf(output: unknown): FleetState | undefined {
  return isObject(output) && isObject(output['plan']) && isObject(output['budget'])
    ? (output as unknown as FleetState)
    : undefined;
}

/** `fleet-planned`, from the plan's state and the skipped list it wrote. */
export function plannedEvent(
  state: FleetState,
  skipped: Planned['skipped'] | undefined,
  time: number,
): Planned {
  const { jobs, allocations, namespaces } = state.plan;
  return { type: 'fleet-planned', time, jobs, allocations, skipped: skipped ?? [], namespaces };
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

/** `fleet-finished`, from "Summarize fleet"'s output (its `summary`), or `undefined` for any other. */
export function finishedEvent(output: unknown, time: number): FleetEvent | undefined {
  if (!isObject(output) || !isObject(output['summary'])) return undefined;
  const summary = output['summary'] as unknown as FleetSummary;
  return {
    type: 'fleet-finished',
    time,
    restarted: summary.restarted,
    failed: summary.failed,
    skipped: summary.skipped,
    withErrors: summary.outcome === 'finished-with-errors',
    problems: summary.problems,
    omittedProblems: summary.omittedProblems,
  };
}
