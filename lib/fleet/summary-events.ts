/**
 * The fleet events "Summarize fleet" hands on in its result (`$.summary.events`: its
 * `fleet-finished`), as a one-job step carries its events: read the same way by the local engine
 * and by the AWS follower from the execution's history.
 */
import type { FleetEvent } from './events';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The events in "Summarize fleet"'s output, or none for any other output. */
export function summaryEventsOf(output: unknown): FleetEvent[] {
  const summary = isObject(output) ? output['summary'] : undefined;
  const events = isObject(summary) ? summary['events'] : undefined;
  return Array.isArray(events) ? (events as FleetEvent[]) : [];
}
