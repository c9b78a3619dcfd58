/**
 * Deployments for service jobs with an `update` block (Nomad's `nomad/deploymentwatcher/`): created
 * when a job version is registered, `running` until the version's allocations have run for
 * `min_healthy_time`, then `successful`. A destructive update with canaries and no auto-promotion
 * places the canaries and waits in `running` ("requires manual promotion") until the control API
 * promotes it (status `successful`) or fails it.
 */
import type { Deployment, Job, TaskGroup, UpdateStrategy } from '../../lib/nomad/types';
import { newId, type SimContext } from './context';
import { isLive } from './status';
import { type AllocRecord, jobKey } from './store';

const TERMINAL = new Set(['successful', 'failed', 'cancelled']);

function updateOf(job: Job, group: TaskGroup): UpdateStrategy | null | undefined {
  return group.Update ?? job.Update;
}

/** The job version's deployment that is still active, if any. */
export function activeDeployment(ctx: SimContext, job: Job): Deployment | undefined {
  for (const d of ctx.store.deployments.values()) {
    if (
      d.JobID === job.ID &&
      d.Namespace === job.Namespace &&
      d.JobVersion === job.Version &&
      !TERMINAL.has(d.Status)
    ) {
      return d;
    }
  }
  return undefined;
}

/**
 * Creates the deployment for a newly registered version, inside the register write.
 * Canaries are only wanted when older allocations exist (Nomad skips them on first placement).
 */
export function createDeployment(ctx: SimContext, index: number, job: Job): void {
  if (job.Type !== 'service') return;
  const groups = (job.TaskGroups ?? []).filter((g) => updateOf(job, g));
  if (groups.length === 0) return;
  // Earlier deployments of the job are superseded by the new version.
  for (const d of ctx.store.deployments.values()) {
    if (d.JobID === job.ID && d.Namespace === job.Namespace && !TERMINAL.has(d.Status)) {
      d.Status = 'cancelled';
      d.StatusDescription = 'Cancelled due to newer version of job';
      d.ModifyIndex = index;
    }
  }
  const existing = ctx.store.allocsOfJob(job.Namespace ?? 'default', job.ID).filter((a) => isLive(a.alloc));
  const taskGroups: NonNullable<Deployment['TaskGroups']> = {};
  let manual = false;
  for (const g of groups) {
    const update = updateOf(job, g);
    const canaries = existing.some((a) => a.alloc.TaskGroup === g.Name) ? (update?.Canary ?? 0) : 0;
    if (canaries > 0 && !update?.AutoPromote) manual = true;
    taskGroups[g.Name] = {
      AutoPromote: update?.AutoPromote ?? false,
      Promoted: false,
      DesiredCanaries: canaries,
      DesiredTotal: g.Count ?? 1,
      PlacedCanaries: [],
      PlacedAllocs: 0,
      HealthyAllocs: 0,
      UnhealthyAllocs: 0,
    };
  }
  const deployment: Deployment = {
    ID: newId(ctx),
    Namespace: job.Namespace ?? 'default',
    JobID: job.ID,
    JobVersion: job.Version ?? 0,
    JobModifyIndex: job.JobModifyIndex ?? index,
    JobCreateIndex: job.CreateIndex ?? index,
    Status: 'running',
    StatusDescription: manual
      ? 'Deployment is running but requires manual promotion'
      : 'Deployment is running',
    TaskGroups: taskGroups,
    CreateIndex: index,
    ModifyIndex: index,
  };
  ctx.store.deployments.set(deployment.ID, deployment);
}

/** Whether old-version allocations must wait for canary promotion, and how many canaries to place now. */
export function canaryGate(
  ctx: SimContext,
  job: Job,
  group: TaskGroup,
): { holdOldVersions: boolean; canariesToPlace: number } {
  const state = activeDeployment(ctx, job)?.TaskGroups?.[group.Name];
  const desired = state?.DesiredCanaries ?? 0;
  if (!state || desired === 0 || state.Promoted) return { holdOldVersions: false, canariesToPlace: 0 };
  return {
    holdOldVersions: true,
    canariesToPlace: Math.max(0, desired - (state.PlacedCanaries?.length ?? 0)),
  };
}

/** Records a canary placement on the deployment and the allocation. */
export function noteCanaryPlaced(
  ctx: SimContext,
  job: Job,
  group: TaskGroup,
  record: AllocRecord,
  index: number,
): void {
  const deployment = activeDeployment(ctx, job);
  const state = deployment?.TaskGroups?.[group.Name];
  if (!deployment || !state) return;
  state.PlacedCanaries = [...(state.PlacedCanaries ?? []), record.alloc.ID];
  record.alloc.DeploymentID = deployment.ID;
  record.alloc.DeploymentStatus = { Healthy: null, Canary: true };
  deployment.ModifyIndex = index;
}

/**
 * Called when an allocation starts running: after `min_healthy_time` the deployment of its
 * version becomes `successful` if every group has its count running and needs no promotion.
 */
export function watchDeploymentHealth(ctx: SimContext, record: AllocRecord): void {
  const job = ctx.store.jobs.get(jobKey(record.alloc.Namespace ?? 'default', record.alloc.JobID))?.job;
  if (!job || job.Version !== record.alloc.JobVersion) return;
  const deployment = activeDeployment(ctx, job);
  if (deployment?.Status !== 'running') return;
  const group = job.TaskGroups?.find((g) => g.Name === record.alloc.TaskGroup);
  const minHealthy = group ? (updateOf(job, group)?.MinHealthyTime ?? 0) / 1_000_000 : 0;
  ctx.timers.after(minHealthy > 0 ? minHealthy : ctx.timing.deploymentHealthyMs, () => {
    if (deployment.Status !== 'running') return;
    const allocs = ctx.store.allocsOfJob(job.Namespace ?? 'default', job.ID);
    const done = Object.entries(deployment.TaskGroups ?? {}).every(([name, state]) => {
      if ((state.DesiredCanaries ?? 0) > 0 && !state.Promoted) return false;
      const running = allocs.filter(
        (a) =>
          a.alloc.TaskGroup === name &&
          a.alloc.JobVersion === job.Version &&
          a.alloc.ClientStatus === 'running' &&
          isLive(a.alloc),
      ).length;
      return running >= (state.DesiredTotal ?? 0);
    });
    if (!done) return;
    ctx.store.write(['deployment'], (index) => {
      deployment.Status = 'successful';
      deployment.StatusDescription = 'Deployment completed successfully';
      deployment.ModifyIndex = index;
    });
  });
}

/**
 * Control API: sets a deployment's status. `successful` also promotes its canaries, so the
 * rest of the update proceeds (the caller enqueues an evaluation).
 * @returns the deployment, or undefined when unknown.
 */
export function setDeploymentStatus(ctx: SimContext, id: string, status: string): Deployment | undefined {
  const deployment = ctx.store.deployments.get(id);
  if (!deployment) return undefined;
  ctx.store.write(['deployment'], (index) => {
    deployment.Status = status;
    deployment.StatusDescription =
      status === 'successful' ? 'Deployment completed successfully' : `Deployment marked as ${status}`;
    if (status === 'successful')
      for (const state of Object.values(deployment.TaskGroups ?? {})) state.Promoted = true;
    deployment.ModifyIndex = index;
  });
  return deployment;
}
