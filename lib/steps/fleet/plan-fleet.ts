/**
 * Plans a fleet run (read-only: only GETs): the node scope, the jobs the selection names, their
 * running allocations in scope, each job restarted or skipped with its reason, in the fleet's
 * order. The item list it returns is what the Distributed Map reads.
 */

import type { OpaqueTemplate } from '../../fleet/consumers';
import type { FleetJobName, FleetSkipReason } from '../../fleet/events';
import { executionName } from '../../fleet/execution-name';
import type { FleetJobItem, JobScope } from '../../fleet/items';
import type { FleetOptions } from '../../fleet/options';
import { orderJobs } from '../../fleet/order';
import { classifyJob, kindAllowsRestart } from '../../fleet/select';
import type { NomadClient } from '../../nomad/client';
import type { AllocListStub, JobListStub } from '../../nomad/types';
import { startedAfter } from '../../restart/filter';
import { formatStartedBefore } from '../../restart/started-before';
import type { PlanStore } from '../../stores/plan-store';
import { type ConsumerScan, scanConsumers, type VariablesFound } from './consumer-scan';
import {
  countJobAllocations,
  countRunningAllocations,
  type JobAllocationCount,
  jobKey,
  listQuery,
  listSelectedJobs,
  type StaleTest,
  visibleNamespaces,
} from './fleet-listing';
import { loadJobReads, saveJobReads } from './job-reads-cache';
import { resolveNodeScope } from './node-scope';

/** A selected job not restarted, with why. */
export type FleetSkippedJob = FleetJobName & { readonly reason: FleetSkipReason };

/** A fleet's plan. */
export interface FleetPlan {
  /** The jobs to restart, in order (the item list). */
  readonly items: FleetJobItem[];
  /** The jobs selected but not restarted, in the same order rule. */
  readonly skipped: FleetSkippedJob[];
  /** Running allocations in scope of the jobs to restart (with a time: the stale ones). */
  readonly allocations: number;
  /** The namespaces the selection covered (with `*`: those the token could list). */
  readonly namespaces: string[];
  /** The scope every job's run gets, when the selection names nodes, a pool or datacenters. */
  readonly scope?: JobScope;
  /** With `-uses-variable`/`-uses-secret`: jobs whose specification was read, and the consumers among them. */
  readonly consumers?: { readonly inspected: number; readonly consumers: number };
  /** With `-stale`: how many variables each path's listing found, per namespace. */
  readonly variables?: readonly VariablesFound[];
  /** Requests made to Nomad (the benchmark's and the tests' count). */
  readonly requests: number;
}

interface Listed {
  readonly stub: JobListStub;
  readonly namespace: string;
  readonly id: string;
  readonly priority?: number;
}

/** Which jobs' allocations the plan counts, and against which time each. */
interface Counting {
  readonly jobs: readonly Listed[];
  /** Each job's time (Unix ms), when the run has one. */
  readonly startedBefore: (key: string) => number | undefined;
  readonly scan?: ConsumerScan;
}

/**
 * The jobs whose allocations are counted: every job whose kind allows a restart, or with
 * `-uses-variable`/`-uses-secret` only its consumers (each specification read once), with the
 * run's time or, with `-stale`, each consumer's own.
 */
async function jobsToCount(
  nomad: NomadClient,
  options: FleetOptions,
  jobs: readonly Listed[],
  kept: PlanStore | undefined,
  signal: AbortSignal | undefined,
): Promise<Counting> {
  const candidates = jobs.filter((job) => kindAllowsRestart(job.stub));
  const shared = options.jobOptions.startedBefore;
  const { selection } = options;
  if (selection.usesVariables === undefined && selection.usesSecrets === undefined)
    return { jobs: candidates, startedBefore: () => shared };
  const known = kept === undefined ? undefined : await loadJobReads(kept);
  const scan = await scanConsumers(
    nomad,
    candidates.map((job) => ({
      namespace: job.namespace,
      id: job.id,
      ...(job.stub.JobModifyIndex === undefined ? {} : { modifyIndex: job.stub.JobModifyIndex }),
    })),
    selection,
    options.stale,
    signal,
    known,
  );
  // Written only when something changed: a run after no change of any job writes nothing.
  if (kept !== undefined && (scan.inspected > 0 || scan.reads.size !== known?.size))
    await saveJobReads(kept, scan.reads);
  return {
    jobs: candidates.filter((job) => scan.consumers.has(jobKey(job.namespace, job.id))),
    startedBefore: (key) => scan.consumers.get(key)?.startedBefore ?? shared,
    scan,
  };
}

/**
 * Plans the fleet `options` describes for run `runId`.
 * @param kept where the jobs' reads are kept between runs (the plan store): with `-uses-variable`/
 *   `-uses-secret`, only the specifications changed since are read from Nomad
 * @throws InvalidInputError with Nomad's words for a filter it cannot read, a node prefix that
 *   matches no node or several, an unknown pool, or a token without `node:read`; and, with
 *   `-stale`, for a path under which the token lists no variable
 */
export async function planFleet(
  nomad: NomadClient,
  options: FleetOptions,
  runId: string,
  signal?: AbortSignal,
  kept?: PlanStore,
): Promise<FleetPlan> {
  const { selection } = options;
  const nodeScope = await resolveNodeScope(nomad, selection, signal);
  const q = listQuery(nomad, selection.namespace, signal);
  const listed = await listSelectedJobs(nomad, selection.filter, q);
  const seen = await visibleNamespaces(nomad, q);
  const jobs: Listed[] = listed.jobs.map((stub) => ({
    stub,
    namespace: stub.Namespace ?? q.namespace,
    id: stub.ID,
    ...(stub.Priority === undefined ? {} : { priority: stub.Priority }),
  }));

  const counting = await jobsToCount(nomad, options, jobs, kept, signal);
  const { scan } = counting;
  const counts = new Map<string, JobAllocationCount>();
  for (const job of counting.jobs) counts.set(jobKey(job.namespace, job.id), { inScope: 0, stale: 0 });
  const isStale = staleTest(options, counting.startedBefore);
  const nodeIds = nodeScope?.nodeIds;
  let allocRequests = 0;
  if (scan !== undefined) {
    allocRequests = await countJobAllocations(nomad, counting.jobs, counts, nodeIds, isStale, signal);
  } else if (counts.size > 0) {
    allocRequests = await countRunningAllocations(nomad, counts, nodeIds, q, isStale);
  }

  const restart: (Listed & { allocations: number; startedBefore?: number })[] = [];
  const skipped: FleetSkippedJob[] = [];
  for (const job of orderJobs(jobs, options.order)) {
    const key = jobKey(job.namespace, job.id);
    const name = { namespace: job.namespace, job: job.id };
    const notInspectable = scan?.notInspectable.get(key);
    if (notInspectable !== undefined) {
      skipped.push({
        ...name,
        reason: { kind: 'not-inspectable', templates: notInspectable.map(templateWords) },
      });
      continue;
    }
    // With -uses-*, a job that reads none of the paths is not selected at all.
    if (scan !== undefined && !scan.consumers.has(key) && kindAllowsRestart(job.stub)) continue;
    const count = counts.get(key) ?? { inScope: 0, stale: 0 };
    const verdict = classifyJob(job.stub, count.inScope);
    const startedBefore = counting.startedBefore(key);
    if (verdict.kind === 'skip') skipped.push({ ...name, reason: verdict.reason });
    else if (count.stale === 0 && startedBefore !== undefined)
      skipped.push({ ...name, reason: { kind: 'fresh', startedBefore, allocations: count.inScope } });
    else
      restart.push({
        ...job,
        allocations: count.stale,
        ...(startedBefore === undefined ? {} : { startedBefore }),
      });
  }
  const items = restart.map(
    (job, i): FleetJobItem => ({
      input: {
        job: job.id,
        namespace: job.namespace,
        fleet: { runId, index: i + 1, of: restart.length },
        // -stale: each job's own time; a shared -started-before travels in the shared options.
        ...(options.stale && job.startedBefore !== undefined
          ? { startedBefore: formatStartedBefore(job.startedBefore) }
          : {}),
      },
      executionName: executionName(runId, job.namespace, job.id),
      allocations: job.allocations,
    }),
  );
  return {
    items,
    skipped,
    allocations: items.reduce((sum, item) => sum + item.allocations, 0),
    namespaces: seen.namespaces,
    ...(nodeScope === undefined ? {} : { scope: nodeScope.scope }),
    ...(scan === undefined
      ? {}
      : { consumers: { inspected: scan.inspected, consumers: scan.consumers.size } }),
    ...(scan === undefined || !options.stale ? {} : { variables: scan.variables }),
    requests:
      (nodeScope?.requests ?? 0) +
      listed.requests +
      seen.requests +
      (scan === undefined ? 0 : scan.inspected + scan.listings) +
      allocRequests,
  };
}

/** An opaque template in the words of a `not-inspectable` skip. */
const templateWords = (t: OpaqueTemplate) => `template ${JSON.stringify(t.template)} ${t.why}`;

/**
 * The stale test of the run: with a time, an allocation is stale unless every task in scope (no
 * `-task` in a fleet: all tasks with `-all-tasks` or `-reschedule`, else the running ones) started
 * at or after it, the one-job filter's own rule (`startedAfter`).
 */
function staleTest(
  options: FleetOptions,
  startedBefore: (key: string) => number | undefined,
): StaleTest | undefined {
  const { jobOptions } = options;
  if (jobOptions.startedBefore === undefined && !options.stale) return undefined;
  const scope = { tasks: [], allTasks: jobOptions.allTasks, reschedule: jobOptions.reschedule };
  return (stub: AllocListStub, key: string) => {
    const time = startedBefore(key);
    return time === undefined || !startedAfter(stub, scope, time);
  };
}
