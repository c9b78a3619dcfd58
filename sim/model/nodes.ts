/**
 * Node status and eligibility changes and what they do to allocations (Nomad's
 * `nomad/node_endpoint.go` `Node.UpdateStatus`): `disconnected` turns allocations with a
 * `disconnect` block `unknown` (and, with `replace = true`, gets them a linked replacement); `down`
 * marks them `lost` and places replacements; reconnecting keeps the original or the replacement
 * according to `disconnect.reconcile` and stops the other.
 */
import type { Job } from '../../lib/nomad/types';
import { SimControlError } from '../errors';
import { freezeAllocation, killAllocation, touchAlloc } from './client';
import type { SimContext } from './context';
import { createEvaluation } from './evaluations';
import { enqueueEvaluation, unblockEvaluations } from './scheduler';
import { isLive } from './status';
import { type AllocRecord, jobKey } from './store';
import { groupOf } from './tasks';

/** Node statuses the control API can set. */
export type ControlNodeStatus = 'ready' | 'down' | 'disconnected';

/** A node as scenarios and the control API describe it. */
export interface NodeSpec {
  id?: string;
  name: string;
  datacenter?: string;
  class?: string;
  pool?: string;
  /** Drivers the node has; omitted: every driver is available. */
  drivers?: string[];
  status?: ControlNodeStatus;
  eligible?: boolean;
  /** Allocation slots; omitted: unlimited. */
  capacity?: number;
  /** The node's `Meta` (filters can select on it). */
  meta?: Record<string, string>;
}

/** A node pool as scenarios describe it (the built-in `all` and `default` always exist). */
export interface NodePoolSpec {
  name: string;
  description?: string;
  meta?: Record<string, string>;
}

function lostAfterMs(record: AllocRecord): number | undefined {
  const group = groupOf(record);
  const ns = group?.Disconnect?.LostAfter ?? group?.MaxClientDisconnect ?? undefined;
  return ns === undefined || ns === null || ns <= 0 ? undefined : ns / 1_000_000;
}

function markLost(ctx: SimContext, record: AllocRecord, index: number): void {
  record.alloc.DesiredStatus = 'stop';
  record.alloc.DesiredDescription = 'alloc is lost since its node is down';
  record.alloc.ClientStatus = 'lost';
  record.alloc.ClientDescription = 'alloc is lost since its node is down';
  record.runtime.awaitingReplacement = true;
  touchAlloc(ctx, record, index);
}

function jobOf(ctx: SimContext, record: AllocRecord): Job | undefined {
  return ctx.store.jobs.get(jobKey(record.alloc.Namespace ?? 'default', record.alloc.JobID))?.job;
}

/** Creates and queues one evaluation per job, inside the caller's write. */
function evaluateJobs(
  ctx: SimContext,
  index: number,
  jobs: Iterable<Job>,
  triggeredBy: string,
  nodeId: string,
): string[] {
  const ids: string[] = [];
  const seen = new Set<string>();
  for (const job of jobs) {
    const key = jobKey(job.Namespace ?? 'default', job.ID);
    if (seen.has(key)) continue;
    seen.add(key);
    ids.push(createEvaluation(ctx, index, job, triggeredBy, { NodeID: nodeId }).ID);
  }
  return ids;
}

function systemJobs(ctx: SimContext): Job[] {
  return [...ctx.store.jobs.values()]
    .map((r) => r.job)
    .filter((j) => j.Type === 'system' || j.Type === 'sysbatch');
}

function reconnect(ctx: SimContext, record: AllocRecord, index: number, toStop: AllocRecord[]): void {
  record.alloc.ClientStatus = record.runtime.statusBeforeDisconnect ?? 'running';
  record.alloc.ClientDescription = 'Tasks are running';
  delete record.runtime.statusBeforeDisconnect;
  record.runtime.awaitingReplacement = false;
  touchAlloc(ctx, record, index);
  const replacement = ctx.store.allocs.get(record.alloc.NextAllocation ?? '');
  const transition = record.alloc.DesiredTransition ?? {};
  const current = jobOf(ctx, record);
  const stale =
    Boolean(transition.Reschedule || transition.ForceReschedule) ||
    (current !== undefined && (record.alloc.JobVersion ?? 0) < (current.Version ?? 0));
  if (!replacement || !isLive(replacement.alloc)) {
    // A migrate request made while disconnected is acted on now, by the node-update evaluation.
    if (stale) {
      record.alloc.DesiredStatus = 'stop';
      record.alloc.DesiredDescription = 'alloc not needed due to job update';
      record.runtime.awaitingReplacement = true;
      toStop.push(record);
    }
    return;
  }
  const reconcile = groupOf(record)?.Disconnect?.Reconcile ?? 'best_score';
  let keepOriginal: boolean;
  if (stale || transition.Migrate) keepOriginal = false;
  else if (reconcile === 'keep_replacement') keepOriginal = false;
  else if (reconcile === 'longest_running') {
    const original = record.runtime.runningSince ?? Number.POSITIVE_INFINITY;
    const other = replacement.runtime.runningSince ?? Number.POSITIVE_INFINITY;
    keepOriginal = original <= other;
  } else {
    // keep_original, and best_score: both allocations score the same in the simulator, and
    // the original (already placed, no migration cost) wins the tie.
    keepOriginal = true;
  }
  const loser = keepOriginal ? replacement : record;
  loser.alloc.DesiredStatus = 'stop';
  loser.alloc.DesiredDescription = keepOriginal
    ? 'alloc not needed due to disconnected client reconnect'
    : 'alloc not needed due to job update';
  touchAlloc(ctx, loser, index);
  toStop.push(loser);
}

/**
 * Sets a node's status as the servers see it, with every consequence for its allocations.
 * @throws SimControlError for an unknown node.
 */
export function setNodeStatus(ctx: SimContext, nodeId: string, status: ControlNodeStatus): void {
  const node = ctx.store.nodes.get(nodeId);
  if (!node) throw new SimControlError(`Unknown node "${nodeId}"`);
  const previous = node.node.Status;
  if (previous === status) return;
  const toStop: AllocRecord[] = [];
  const evalIds = ctx.store.write(['nodes', 'allocs', 'evals', 'job_summary', 'deployment'], (index) => {
    node.node.Status = status;
    node.node.ModifyIndex = index;
    const affected: Job[] = [];
    for (const record of ctx.store.allocsOfNode(nodeId)) {
      const job = jobOf(ctx, record);
      if (status === 'ready') {
        if (record.alloc.ClientStatus === 'unknown' && isLive(record.alloc)) {
          reconnect(ctx, record, index, toStop);
          if (job) affected.push(job);
        }
        continue;
      }
      if (!isLive(record.alloc) || record.alloc.ClientStatus === 'unknown') continue;
      freezeAllocation(record);
      if (job) affected.push(job);
      const lostAfter = lostAfterMs(record);
      const keepUnknown =
        status === 'disconnected'
          ? lostAfter !== undefined && record.alloc.ClientStatus !== 'pending'
          : groupOf(record)?.Disconnect?.Replace === false && record.alloc.ClientStatus === 'running';
      if (!keepUnknown) {
        markLost(ctx, record, index);
        continue;
      }
      record.runtime.statusBeforeDisconnect = record.alloc.ClientStatus;
      record.alloc.ClientStatus = 'unknown';
      record.alloc.ClientDescription = 'alloc is unknown since its node is disconnected';
      record.runtime.awaitingReplacement = groupOf(record)?.Disconnect?.Replace ?? true;
      touchAlloc(ctx, record, index);
      if (status === 'disconnected' && lostAfter !== undefined) scheduleLostAfter(ctx, record, lostAfter);
    }
    if (status === 'ready' && node.node.SchedulingEligibility !== 'ineligible')
      affected.push(...systemJobs(ctx));
    return evaluateJobs(ctx, index, affected, 'node-update', nodeId);
  });
  for (const record of toStop) killAllocation(ctx, record);
  for (const id of evalIds) enqueueEvaluation(ctx, id);
  if (status === 'ready') unblockEvaluations(ctx);
}

/** When `lost_after` runs out on a still-disconnected node, the unknown allocation is lost. */
function scheduleLostAfter(ctx: SimContext, record: AllocRecord, ms: number): void {
  ctx.timers.after(ms, () => {
    if (record.alloc.ClientStatus !== 'unknown' || !isLive(record.alloc)) return;
    const job = jobOf(ctx, record);
    const evalId = ctx.store.write(['allocs', 'evals', 'job_summary'], (index) => {
      const replaced = Boolean(record.alloc.NextAllocation);
      markLost(ctx, record, index);
      record.runtime.awaitingReplacement = !replaced;
      return job ? createEvaluation(ctx, index, job, 'max-disconnect-timeout').ID : undefined;
    });
    if (evalId) enqueueEvaluation(ctx, evalId);
  });
}

/**
 * Sets a node's scheduling eligibility; becoming eligible lets system jobs and blocked
 * evaluations place there.
 * @throws SimControlError for an unknown node.
 */
export function setNodeEligibility(ctx: SimContext, nodeId: string, eligible: boolean): void {
  const node = ctx.store.nodes.get(nodeId);
  if (!node) throw new SimControlError(`Unknown node "${nodeId}"`);
  const evalIds = ctx.store.write(['nodes', 'evals'], (index) => {
    node.node.SchedulingEligibility = eligible ? 'eligible' : 'ineligible';
    node.node.ModifyIndex = index;
    return eligible && node.node.Status === 'ready'
      ? evaluateJobs(ctx, index, systemJobs(ctx), 'node-update', nodeId)
      : [];
  });
  for (const id of evalIds) enqueueEvaluation(ctx, id);
  if (eligible) unblockEvaluations(ctx);
}
