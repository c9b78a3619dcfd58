/**
 * The order a fleet restarts its jobs in: stable and documented, so the plan a user reads is the
 * order that runs. `id`: namespace, then job ID. `priority`: lowest Nomad priority first, so the
 * most important services restart after the rest proved fine; ties by namespace, then job ID.
 */
import type { FleetOrder } from './options';

/** Nomad's priority of a job that does not say (`structs.JobDefaultPriority`). */
export const NOMAD_DEFAULT_PRIORITY = 50;

/** What ordering reads of a job. */
export interface OrderedJob {
  readonly namespace: string;
  readonly id: string;
  readonly priority?: number;
}

/** Compares by code unit, as Go compares strings: no locale may reorder a plan between machines. */
const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const byNamespaceThenId = (a: OrderedJob, b: OrderedJob): number =>
  byCodeUnit(a.namespace, b.namespace) || byCodeUnit(a.id, b.id);

/** A sorted copy of `jobs` in `order`. */
export function orderJobs<T extends OrderedJob>(jobs: readonly T[], order: FleetOrder): T[] {
  const compare =
    order === 'priority'
      ? (a: T, b: T) =>
          (a.priority ?? NOMAD_DEFAULT_PRIORITY) - (b.priority ?? NOMAD_DEFAULT_PRIORITY) ||
          byNamespaceThenId(a, b)
      : byNamespaceThenId;
  return [...jobs].sort(compare);
}
