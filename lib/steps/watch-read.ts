/**
 * How a batch's watch reads the job's allocations. The job's own list
 * (`GET /v1/job/:id/allocations`) is an index lookup on Nomad's side but carries every
 * allocation's task states and events; the watch reads none of them (it follows
 * `NextAllocation`, `ClientStatus`, `DesiredStatus`, `DesiredTransition`). For a large job it
 * reads `GET /v1/allocations?filter=JobID == "<id>"&task_states=false` instead (the same stubs,
 * same `read-job` ACL, same blocking index): about half the bytes and half the decoding at
 * 50,000 allocations. A small job keeps the job's list: there the filter's scan of the whole
 * namespace on Nomad's side would cost more than the task states it saves.
 */
import type { NomadClient } from '../nomad/client';
import type { QueryOptions, QueryResult } from '../nomad/query';
import type { AllocListStub } from '../nomad/types';
import type { RestartPlan } from '../restart/plan';

/** From this many allocations listed by the plan on, the watch reads the filtered list. */
export const FILTERED_WATCH_MIN_ALLOCATIONS = 1_000;

/**
 * The go-bexpr filter that selects the job's allocations, or `undefined` when the ID cannot be
 * written in one: bexpr's double-quoted strings take no escape Nomad accepts (`"a\"b"` is a
 * syntax error on a real agent).
 */
export function jobIdFilter(jobId: string): string | undefined {
  return /["\\]/.test(jobId) ? undefined : `JobID == "${jobId}"`;
}

/** One read (blocking with `q.index`) of the plan's job's allocations, as the watch needs them. */
export function readWatchedAllocations(
  client: NomadClient,
  plan: RestartPlan,
  q: QueryOptions,
): Promise<QueryResult<AllocListStub[]>> {
  const filter = jobIdFilter(plan.job.id);
  if (filter === undefined || plan.counts.listed < FILTERED_WATCH_MIN_ALLOCATIONS) {
    return client.jobs().allocations(plan.job.id, q);
  }
  return client.allocations().list({ filter, taskStates: false }, q);
}
