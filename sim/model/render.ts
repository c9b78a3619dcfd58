/** Wire views of stored objects: job status and summary, list stubs, full allocations. */
import type { Allocation, AllocListStub, Job, JobListStub, JobSummary } from '../../lib/nomad/types';
import { isLive } from './status';
import type { AllocRecord, JobRecord, Store } from './store';

/** Nomad's job status: `pending` until something runs, `running` while anything lives, then `dead`. */
export function jobStatus(store: Store, record: JobRecord): string {
  const job = record.job;
  if (job.Periodic || job.ParameterizedJob) return job.Stop ? 'dead' : 'running';
  const allocs = store.allocsOfJob(record.namespace, record.id);
  if (allocs.some((a) => isLive(a.alloc))) return 'running';
  const pendingEval = store
    .evalsOfJob(record.namespace, record.id)
    .some((e) => e.Status === 'pending' || e.Status === 'blocked');
  if (!job.Stop && (allocs.length === 0 || pendingEval)) return 'pending';
  return 'dead';
}

/** The job as `GET /v1/job/:id` serves it. */
export function renderJob(store: Store, record: JobRecord): Job {
  return { ...record.job, Status: jobStatus(store, record) };
}

/** `GET /v1/job/:id/summary`: allocation counts per group by client status. */
export function renderSummary(
  store: Store,
  record: JobRecord,
): JobSummary & { Children: Record<string, number> } {
  const summary: Record<string, Record<string, number>> = {};
  for (const group of record.job.TaskGroups ?? []) {
    summary[group.Name] = { Queued: 0, Complete: 0, Failed: 0, Running: 0, Starting: 0, Lost: 0, Unknown: 0 };
  }
  for (const { alloc } of store.allocsOfJob(record.namespace, record.id)) {
    const counts = summary[alloc.TaskGroup];
    if (!counts) continue;
    const key =
      alloc.ClientStatus === 'pending'
        ? 'Starting'
        : alloc.ClientStatus.charAt(0).toUpperCase() + alloc.ClientStatus.slice(1);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  for (const evaluation of store.evalsOfJob(record.namespace, record.id)) {
    if (evaluation.Status !== 'blocked') continue;
    for (const [group, queued] of Object.entries(evaluation.QueuedAllocations ?? {})) {
      const counts = summary[group];
      if (counts) counts['Queued'] = (counts['Queued'] ?? 0) + queued;
    }
  }
  return {
    JobID: record.id,
    Namespace: record.namespace,
    Summary: summary,
    Children: childrenOf(store, record),
    CreateIndex: record.summaryCreateIndex,
    ModifyIndex: record.summaryModifyIndex,
  };
}

/** Nomad's `JobListStub` fields that the client library's type leaves out. */
export interface SimJobListStub extends JobListStub {
  NodePool: string;
  Multiregion: Job['Multiregion'];
  /** Only with `meta=true`. */
  Meta?: Record<string, string> | null;
}

/**
 * A periodic or parameterized parent's children by status (Nomad's `JobChildrenSummary`): what
 * tells an operator the parent's work runs in other jobs. Zeroes for any other job.
 */
function childrenOf(store: Store, record: JobRecord): { Pending: number; Running: number; Dead: number } {
  const children = { Pending: 0, Running: 0, Dead: 0 };
  if (!record.job.Periodic && !record.job.ParameterizedJob) return children;
  for (const child of store.jobs.values()) {
    if (child.namespace !== record.namespace || child.job.ParentID !== record.id) continue;
    const status = jobStatus(store, child);
    if (status === 'running') children.Running++;
    else if (status === 'dead') children.Dead++;
    else children.Pending++;
  }
  return children;
}

/** A job list stub with `JobSummary` filled in (the CLI reads the namespace from it). */
export function renderJobStub(store: Store, record: JobRecord): SimJobListStub {
  const job = record.job as Job & { NodePool?: string };
  return {
    ID: job.ID,
    ParentID: job.ParentID ?? '',
    Name: job.Name ?? job.ID,
    Namespace: record.namespace,
    Datacenters: job.Datacenters ?? [],
    NodePool: job.NodePool ?? 'default',
    Multiregion: job.Multiregion ?? null,
    Type: job.Type ?? 'service',
    Priority: job.Priority ?? 50,
    Periodic: Boolean(job.Periodic),
    ParameterizedJob: Boolean(job.ParameterizedJob),
    Stop: job.Stop ?? false,
    Status: jobStatus(store, record),
    StatusDescription: '',
    JobSummary: renderSummary(store, record),
    CreateIndex: job.CreateIndex ?? 0,
    ModifyIndex: job.ModifyIndex ?? 0,
    JobModifyIndex: job.JobModifyIndex ?? 0,
    SubmitTime: job.SubmitTime ?? 0,
  };
}

/**
 * The allocation list stub: Nomad's `AllocListStub` has no `Job`, `PreviousAllocation`,
 * `AllocModifyIndex` or `DeploymentID` (only `GET /v1/allocation/:id` does); task states are
 * included unless `taskStates` is false.
 */
export function renderAllocStub(record: AllocRecord, taskStates = true): AllocListStub {
  const {
    PreviousAllocation: _previous,
    AllocModifyIndex: _allocModifyIndex,
    DeploymentID: _deploymentId,
    ...stub
  } = record.alloc;
  return taskStates ? stub : { ...stub, TaskStates: null };
}

/** The full allocation, with the job version it runs. */
export function renderAlloc(record: AllocRecord): Allocation {
  return { ...record.alloc, Job: record.job };
}
