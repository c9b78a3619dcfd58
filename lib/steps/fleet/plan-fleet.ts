/**
 * Plans a fleet run (read-only: only GETs): the node scope, the jobs the selection names, their
 * running allocations in scope, each job restarted or skipped with its reason, in the fleet's
 * order. The item list it returns is what the Distributed Map reads.
 */

import type { FleetJobName, FleetSkipReason } from '../../fleet/events';
import { executionName } from '../../fleet/execution-name';
import type { FleetJobItem, JobScope } from '../../fleet/items';
import type { FleetOptions } from '../../fleet/options';
import { orderJobs } from '../../fleet/order';
import { classifyJob, kindAllowsRestart } from '../../fleet/select';
import type { NomadClient } from '../../nomad/client';
import type { JobListStub } from '../../nomad/types';
import {
  countRunningAllocations,
  jobKey,
  listQuery,
  listSelectedJobs,
  visibleNamespaces,
} from './fleet-listing';
import { resolveNodeScope } from './node-scope';

/** A selected job not restarted, with why. */
export type FleetSkippedJob = FleetJobName & { readonly reason: FleetSkipReason };

/** A fleet's plan. */
export interface FleetPlan {
  /** The jobs to restart, in order (the item list). */
  readonly items: FleetJobItem[];
  /** The jobs selected but not restarted, in the same order rule. */
  readonly skipped: FleetSkippedJob[];
  /** Running allocations in scope of the jobs to restart. */
  readonly allocations: number;
  /** The namespaces the selection covered (with `*`: those the token could list). */
  readonly namespaces: string[];
  /** The scope every job's run gets, when the selection names nodes, a pool or datacenters. */
  readonly scope?: JobScope;
  /** Requests made to Nomad (the benchmark's and the tests' count). */
  readonly requests: number;
}

interface Listed {
  readonly stub: JobListStub;
  readonly namespace: string;
  readonly id: string;
  readonly priority?: number;
}

/**
 * Plans the fleet `options` describes for run `runId`.
 * @throws InvalidInputError with Nomad's words for a filter it cannot read, a node prefix that
 *   matches no node or several, an unknown pool, or a token without `node:read`
 */
export async function planFleet(
  nomad: NomadClient,
  options: FleetOptions,
  runId: string,
  signal?: AbortSignal,
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

  // Only jobs whose kind allows a restart need their allocations counted.
  const counts = new Map<string, number>();
  for (const job of jobs) if (kindAllowsRestart(job.stub)) counts.set(jobKey(job.namespace, job.id), 0);
  const allocRequests =
    counts.size === 0 ? 0 : await countRunningAllocations(nomad, counts, nodeScope?.nodeIds, q);

  const restart: (Listed & { allocations: number })[] = [];
  const skipped: FleetSkippedJob[] = [];
  for (const job of orderJobs(jobs, options.order)) {
    const verdict = classifyJob(job.stub, counts.get(jobKey(job.namespace, job.id)) ?? 0);
    if (verdict.kind === 'skip')
      skipped.push({ namespace: job.namespace, job: job.id, reason: verdict.reason });
    else restart.push({ ...job, allocations: verdict.allocations });
  }
  const items = restart.map(
    (job, i): FleetJobItem => ({
      input: { job: job.id, namespace: job.namespace, fleet: { runId, index: i + 1, of: restart.length } },
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
    requests: (nodeScope?.requests ?? 0) + listed.requests + seen.requests + allocRequests,
  };
}
