/**
 * How the client model reports to the servers: one write that stamps the allocation, dropped
 * when its node is not `ready` (the servers cannot hear from it).
 */
import { nowNs, type SimContext } from './context';
import { type AllocRecord, jobKey } from './store';

/** Stamps an allocation as modified at `index` (and its job's summary). */
export function touchAlloc(ctx: SimContext, record: AllocRecord, index: number): void {
  record.alloc.ModifyIndex = index;
  record.alloc.ModifyTime = nowNs(ctx);
  ctx.store.noteAllocChanged(record);
  const job = ctx.store.jobs.get(jobKey(record.alloc.Namespace ?? 'default', record.alloc.JobID));
  if (job) job.summaryModifyIndex = index;
}

/** Whether the allocation's node is `ready`, so its client's updates reach the servers. */
export function connected(ctx: SimContext, record: AllocRecord): boolean {
  const node = ctx.store.nodes.get(record.alloc.NodeID ?? '');
  return node?.node.Status === 'ready';
}

/** A client-originated write; dropped (returns false) when the node cannot reach the servers. */
export function clientWrite(ctx: SimContext, record: AllocRecord, fn: () => void): boolean {
  if (!connected(ctx, record)) return false;
  ctx.store.write(['allocs', 'job_summary'], (index) => {
    fn();
    touchAlloc(ctx, record, index);
  });
  ctx.hooks.tasksChanged(record);
  return true;
}

/**
 * A live allocation's client status follows its tasks while they restart, as a Nomad client
 * reports it (traced): `pending` while no task runs and one is about to start, `running` again once
 * one runs. Finished and failed allocations keep theirs.
 */
export function followTaskStates(record: AllocRecord): void {
  const alloc = record.alloc;
  if (alloc.ClientStatus !== 'running' && alloc.ClientStatus !== 'pending') return;
  if (record.runtime.mainStarted !== true) return;
  const states = Object.values(alloc.TaskStates ?? {});
  if (states.some((s) => s.State === 'running')) alloc.ClientStatus = 'running';
  else if (states.some((s) => s.State === 'pending')) alloc.ClientStatus = 'pending';
}
