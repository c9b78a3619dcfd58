/**
 * The fleet plan's reads of Nomad, each one paginated listing whatever the fleet's size: the jobs
 * the selection names (Nomad evaluates `-filter` on each whole job), the namespaces the token can
 * see, and the running allocations, counted per selected job on the nodes in scope. Never a
 * request per job (5,000 jobs cost a handful of pages), but for a fleet's few consumers of a
 * variable or secret (`countJobAllocations`).
 */

import { ALL_NAMESPACES } from '../../fleet/options';
import type { NomadClient } from '../../nomad/client';
import { UnexpectedResponseError } from '../../nomad/errors';
import type { QueryOptions } from '../../nomad/query';
import type { AllocListStub, JobListStub } from '../../nomad/types';
import { isRestartCandidate } from '../../restart/filter';
import { InvalidInputError } from '../../workflow/errors';
import { forEachPage } from './pages';

/**
 * What the allocation listing asks Nomad for: the allocations the one-job plan could restart
 * (rule 1 of Nomad's `filterAllocs`), so finished ones never cross the wire.
 */
export const RUNNING_ALLOCATIONS_FILTER = 'ClientStatus == "running" or DesiredStatus == "run"';

/** A job's key in the plan's maps: namespace and ID cannot both collide with a NUL between. */
export const jobKey = (namespace: string, id: string): string => `${namespace}\u0000${id}`;

/**
 * The query options of every listing: the selection's namespace, else the client's, else Nomad's
 * `default`, always sent, so a stub without a namespace is known to be in it.
 */
export function listQuery(
  nomad: NomadClient,
  namespace: string | undefined,
  signal: AbortSignal | undefined,
): QueryOptions & { namespace: string } {
  return {
    namespace: namespace ?? nomad.config.namespace ?? 'default',
    ...(signal === undefined ? {} : { signal }),
  };
}

/**
 * Every job the selection names, in Nomad's order. A filter Nomad cannot read is refused with
 * Nomad's own words (its 400), as `nomad job status -filter` prints them, before anything is touched.
 */
export async function listSelectedJobs(
  nomad: NomadClient,
  filter: string | undefined,
  q: QueryOptions,
): Promise<{ jobs: JobListStub[]; requests: number }> {
  const jobs: JobListStub[] = [];
  try {
    const requests = await forEachPage(
      (page) => nomad.jobs().list({ ...(filter === undefined ? {} : { filter }), ...page }, q),
      (page) => jobs.push(...page),
    );
    return { jobs, requests };
  } catch (err) {
    if (err instanceof UnexpectedResponseError && err.statusCode === 400) {
      throw new InvalidInputError(`Error querying jobs: ${err.message}`, { cause: err });
    }
    throw err;
  }
}

/** The namespaces the plan covers: with `*`, those Nomad lists for the token, sorted. */
export async function visibleNamespaces(
  nomad: NomadClient,
  q: QueryOptions & { namespace: string },
): Promise<{ namespaces: string[]; requests: number }> {
  if (q.namespace !== ALL_NAMESPACES) return { namespaces: [q.namespace], requests: 0 };
  const { value } = await nomad.namespaces().list(q.signal === undefined ? {} : { signal: q.signal });
  return { namespaces: value.map((ns) => ns.Name).sort(), requests: 1 };
}

/** A selected job's allocations a restart would restart: in scope, and of those, started before its time. */
export interface JobAllocationCount {
  inScope: number;
  /** In scope and stale: with a task in scope started before the job's `startedBefore`. */
  stale: number;
}

/**
 * Whether an allocation in scope of the job `key` is stale; `undefined` when the run has no time
 * (every allocation in scope is then restarted, and task states need not be read).
 */
export type StaleTest = (stub: AllocListStub, key: string) => boolean;

/** Counts one allocation into its job's count, when it is the job's and in scope. */
function countInto(
  counts: Map<string, JobAllocationCount>,
  key: string,
  stub: AllocListStub,
  nodeIds: ReadonlySet<string> | undefined,
  isStale: StaleTest | undefined,
): void {
  const count = counts.get(key);
  if (count === undefined || !isRestartCandidate(stub)) return;
  if (nodeIds !== undefined && !nodeIds.has(stub.NodeID ?? '')) return;
  count.inScope++;
  if (isStale === undefined || isStale(stub, key)) count.stale++;
}

/**
 * Counts, for each key of `counts` (a selected job), its allocations a restart would restart on the
 * nodes in scope (`nodeIds`; all nodes when absent), from one paginated listing, with task states
 * only when `isStale` needs them. Allocations of other jobs are dropped page by page.
 */
export async function countRunningAllocations(
  nomad: NomadClient,
  counts: Map<string, JobAllocationCount>,
  nodeIds: ReadonlySet<string> | undefined,
  q: QueryOptions & { namespace: string },
  isStale?: StaleTest,
): Promise<number> {
  return forEachPage<AllocListStub>(
    (page) =>
      nomad
        .allocations()
        .list({ filter: RUNNING_ALLOCATIONS_FILTER, taskStates: isStale !== undefined, ...page }, q),
    (page) => {
      for (const stub of page)
        countInto(counts, jobKey(stub.Namespace ?? q.namespace, stub.JobID), stub, nodeIds, isStale);
    },
  );
}

/**
 * The same count for a few jobs (a fleet's consumers), one `GET /v1/job/:id/allocations` each, its
 * stubs with their task states: cheaper than the whole cluster's listing when the jobs are few.
 */
export async function countJobAllocations(
  nomad: NomadClient,
  jobs: readonly { readonly namespace: string; readonly id: string }[],
  counts: Map<string, JobAllocationCount>,
  nodeIds: ReadonlySet<string> | undefined,
  isStale: StaleTest | undefined,
  signal: AbortSignal | undefined,
): Promise<number> {
  for (const job of jobs) {
    const q = { namespace: job.namespace, ...(signal === undefined ? {} : { signal }) };
    const { value } = await nomad.jobs().allocations(job.id, q);
    for (const stub of value) countInto(counts, jobKey(job.namespace, job.id), stub, nodeIds, isStale);
  }
  return jobs.length;
}
