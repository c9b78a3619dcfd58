/**
 * How the plan and a batch's watch read a job's allocations. The job's own list
 * (`GET /v1/job/:id/allocations`) is an index lookup on Nomad's side but carries every
 * allocation's task states and events, which only `-task` reads (the watch follows
 * `NextAllocation`, `ClientStatus`, `DesiredStatus`, `DesiredTransition`). For a large job they
 * read `GET /v1/allocations?filter=JobID == "<id>"&task_states=false` instead (the same stubs
 * but `TaskStates: null`, same `read-job` ACL, same blocking index): about half the bytes and
 * half the decoding at 50,000 allocations. A small job keeps the job's list: there the filter's
 * scan of the whole namespace on Nomad's side would cost more than the task states it saves.
 */
import type { NomadClient } from '../../nomad/client';
import type { QueryOptions, QueryResult } from '../../nomad/query';
import type { AllocListStub, Job } from '../../nomad/types';
import type { RestartPlan } from '../../restart/plan';

/** From this many allocations on, a job's allocations are read filtered, without task states. */
export const FILTERED_READ_MIN_ALLOCATIONS = 1_000;

/**
 * The go-bexpr filter that selects the job's allocations, or `undefined` when the ID cannot be
 * written in one: bexpr's double-quoted strings take no escape Nomad accepts (`"a\"b"` is a
 * syntax error on a real agent).
 */
export function jobIdFilter(jobId: string): string | undefined {
  return /["\\]/.test(jobId) ? undefined : `JobID == "${jobId}"`;
}

/** The job's allocations: filtered without task states when `withoutTaskStates` and the ID allows it. */
export async function readJobAllocations(
  client: NomadClient,
  jobId: string,
  withoutTaskStates: boolean,
  q: QueryOptions,
): Promise<QueryResult<AllocListStub[]>> {
  const filter = withoutTaskStates ? jobIdFilter(jobId) : undefined;
  if (filter === undefined) return client.jobs().allocations(jobId, q);
  const listed = await client.allocations().list({ filter, taskStates: false }, q);
  // A Nomad too old to know `filter` ignores it and lists the whole namespace: another job's
  // allocation must never be planned, so the job is selected here too.
  return { ...listed, value: listed.value.filter((stub) => stub.JobID === jobId) };
}

/**
 * The plan's read: without task states when the job asks for at least
 * {@link FILTERED_READ_MIN_ALLOCATIONS} allocations (its groups' counts, known from the job
 * already read) and no option needs them: neither a `-task` filter nor `-started-before` (which
 * reads each task's `StartedAt`; without it every allocation would look never started, so fresh).
 */
export function readAllocationsToPlan(
  client: NomadClient,
  job: { readonly id: string; readonly definition: Job },
  options: { readonly tasks: readonly string[]; readonly startedBefore?: number },
  q: QueryOptions,
): Promise<QueryResult<AllocListStub[]>> {
  const wanted = (job.definition.TaskGroups ?? []).reduce((sum, group) => sum + (group.Count ?? 1), 0);
  const needsTaskStates = options.tasks.length > 0 || options.startedBefore !== undefined;
  return readJobAllocations(client, job.id, !needsTaskStates && wanted >= FILTERED_READ_MIN_ALLOCATIONS, q);
}

/** One read of a batch's watch (blocking with `q.index`): without task states when the plan listed a large job. */
export function readWatchedAllocations(
  client: NomadClient,
  plan: RestartPlan,
  q: QueryOptions,
): Promise<QueryResult<AllocListStub[]>> {
  return readJobAllocations(client, plan.job.id, plan.counts.listed >= FILTERED_READ_MIN_ALLOCATIONS, q);
}
