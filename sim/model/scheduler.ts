/**
 * The scheduler: processes an evaluation in one plan write, like Nomad's generic (service,
 * batch) and system (system, sysbatch) schedulers, in Nomad's vocabulary (`scheduler/reconciler/filters.go`):
 * a **migration** (stop API, `Migrate=true`) stops the allocation and places a linked
 * replacement; a **replacement** follows a lost node; a stopped system allocation is only
 * re-placed by a later evaluation; sysbatch is never re-placed. Placements that cannot be
 * made leave a **blocked** evaluation with `FailedTGAllocs` (Nomad's `scheduler/generic_sched.go`).
 */
import type { AllocationMetric, Evaluation, Job, TaskGroup } from '../../lib/nomad/types';
import { initialTaskStates, killAllocation, startAllocation, touchAlloc } from './client';
import { newId, nowNs, type SimContext } from './context';
import { canaryGate, noteCanaryPlaced } from './deployments';
import { createEvaluation } from './evaluations';
import { feasibleNodes, NodePicker, SlotTracker } from './placement';
import { isLive, isServerTerminal, slotOf } from './status';
import { type AllocRecord, type JobRecord, jobKey, type NodeRecord } from './store';

interface Plan {
  placed: AllocRecord[];
  stopped: AllocRecord[];
  failed: Record<string, AllocationMetric>;
  queued: Record<string, number>;
}

/**
 * The stop API's evaluations still waiting, per job. Nomad's eval broker runs one evaluation of a
 * job at a time and cancels the older ones still waiting when it runs a newer one (they would
 * plan the same state); a burst of stops (a `-reschedule` batch) is planned once, not once per
 * stop, which also keeps a large job's simulation linear.
 */
const waitingStops = new WeakMap<SimContext, Map<string, string[]>>();

function stopsOf(ctx: SimContext, evaluation: Evaluation): string[] {
  let byJob = waitingStops.get(ctx);
  if (byJob === undefined) {
    byJob = new Map();
    waitingStops.set(ctx, byJob);
  }
  const key = jobKey(evaluation.Namespace ?? 'default', evaluation.JobID);
  let ids = byJob.get(key);
  if (ids === undefined) {
    ids = [];
    byJob.set(key, ids);
  }
  return ids;
}

/** Queues `evaluation` for processing after the scheduler delay (0 with `instant`). */
export function enqueueEvaluation(ctx: SimContext, evalId: string, instant = false): void {
  const evaluation = ctx.store.evals.get(evalId);
  if (evaluation?.TriggeredBy === 'alloc-stop' && evaluation.Status === 'pending') {
    stopsOf(ctx, evaluation).push(evalId);
  }
  if (instant) processEvaluation(ctx, evalId, true);
  else ctx.timers.after(ctx.timing.schedulerDelayMs, () => processEvaluation(ctx, evalId, false));
}

/**
 * For a stop evaluation: the older ones of its job still waiting, to cancel as it runs, or
 * `undefined` when a newer one waits (that one plans for all of them, when its own time comes).
 */
function olderStops(ctx: SimContext, evaluation: Evaluation): Evaluation[] | undefined {
  if (evaluation.TriggeredBy !== 'alloc-stop') return [];
  const ids = stopsOf(ctx, evaluation);
  if (ids.at(-1) !== evaluation.ID) return undefined;
  const older = ids.slice(0, -1).flatMap((id) => {
    const e = ctx.store.evals.get(id);
    return e?.Status === 'pending' ? [e] : [];
  });
  ids.length = 0;
  return older;
}

/** Processes one evaluation: plan, apply in one write, then let the clients act. */
export function processEvaluation(ctx: SimContext, evalId: string, instant: boolean): void {
  const { store } = ctx;
  const evaluation = store.evals.get(evalId);
  if (!evaluation || (evaluation.Status !== 'pending' && evaluation.Status !== 'blocked')) return;
  const superseded = olderStops(ctx, evaluation);
  if (superseded === undefined) return;
  const record = store.jobs.get(jobKey(evaluation.Namespace ?? 'default', evaluation.JobID));
  const plan = store.write(['allocs', 'evals', 'job_summary', 'deployment'], (index) => {
    const p: Plan = { placed: [], stopped: [], failed: {}, queued: {} };
    if (record) {
      const system = record.job.Type === 'system' || record.job.Type === 'sysbatch';
      for (const group of record.job.TaskGroups ?? []) {
        const work: GroupWork = { ctx, jobRecord: record, group, evaluation, index, plan: p };
        if (system) reconcileSystem(work);
        else reconcileGeneric(work);
      }
    }
    finishEvaluation(ctx, record?.job, evaluation, index, p);
    for (const older of superseded) {
      older.Status = 'canceled';
      older.StatusDescription = 'canceled after more recent eval was processed';
      older.ModifyIndex = index;
      older.ModifyTime = nowNs(ctx);
    }
    return p;
  });
  for (const stopped of plan.stopped) killAllocation(ctx, stopped);
  for (const placed of plan.placed) startAllocation(ctx, placed, instant);
}

function stop(ctx: SimContext, record: AllocRecord, description: string, index: number, plan: Plan): void {
  record.alloc.DesiredStatus = 'stop';
  record.alloc.DesiredDescription = description;
  touchAlloc(ctx, record, index);
  plan.stopped.push(record);
}

function place(
  ctx: SimContext,
  job: Job,
  group: TaskGroup,
  name: string,
  node: NodeRecord,
  evaluation: Evaluation,
  index: number,
  previous: AllocRecord | undefined,
): AllocRecord {
  const now = nowNs(ctx);
  const record: AllocRecord = {
    alloc: {
      ID: newId(ctx),
      EvalID: evaluation.ID,
      Name: name,
      Namespace: job.Namespace ?? 'default',
      NodeID: node.node.ID,
      NodeName: node.node.Name ?? '',
      JobID: job.ID,
      JobType: job.Type ?? 'service',
      JobVersion: job.Version ?? 0,
      TaskGroup: group.Name,
      DesiredStatus: 'run',
      DesiredDescription: '',
      ClientStatus: 'pending',
      ClientDescription: 'No tasks have started',
      DesiredTransition: {},
      TaskStates: {},
      NextAllocation: '',
      PreviousAllocation: previous?.alloc.ID ?? '',
      FollowupEvalID: '',
      CreateIndex: index,
      ModifyIndex: index,
      AllocModifyIndex: index,
      CreateTime: now,
      ModifyTime: now,
    },
    job,
    runtime: { cancels: new Set(), taskTimers: new Map() },
  };
  record.alloc.TaskStates = initialTaskStates(ctx, record);
  ctx.store.insertAlloc(record);
  if (previous) {
    previous.alloc.NextAllocation = record.alloc.ID;
    touchAlloc(ctx, previous, index);
  }
  return record;
}

function groupAllocs(ctx: SimContext, record: JobRecord, group: TaskGroup): AllocRecord[] {
  return ctx.store.allocsOfJob(record.namespace, record.id).filter((a) => a.alloc.TaskGroup === group.Name);
}

function replaceOnDisconnect(group: TaskGroup | undefined): boolean {
  return group?.Disconnect?.Replace ?? true;
}

function groupSpec(job: Job, name: string): string {
  return JSON.stringify(job.TaskGroups?.find((g) => g.Name === name) ?? null);
}

function nodeReady(ctx: SimContext, record: AllocRecord): boolean {
  return ctx.store.nodes.get(record.alloc.NodeID ?? '')?.node.Status === 'ready';
}

/** One task group's turn in an evaluation: what its reconciler reads and the plan it adds to. */
interface GroupWork {
  readonly ctx: SimContext;
  readonly jobRecord: JobRecord;
  readonly group: TaskGroup;
  readonly evaluation: Evaluation;
  readonly index: number;
  readonly plan: Plan;
}

function reconcileGeneric(work: GroupWork): void {
  const { ctx, jobRecord, group, evaluation, index, plan } = work;
  const job = jobRecord.job;
  const count = job.Stop ? 0 : (group.Count ?? 1);
  const allocs = groupAllocs(ctx, jobRecord, group);
  const linkFor = new Map<string, AllocRecord>();
  const gate = canaryGate(ctx, job, group);
  const replaceUnknown = replaceOnDisconnect(group);
  const covered = new Set<number>();
  const excess: { a: AllocRecord; i: number }[] = [];
  // One pass over the group: a burst of stops plans a 50,000-allocation job many times.
  for (const a of allocs) {
    const name = a.alloc.Name ?? '';
    if (isLive(a.alloc)) {
      if (a.alloc.DesiredTransition?.Migrate && a.alloc.ClientStatus !== 'unknown' && nodeReady(ctx, a)) {
        stop(ctx, a, 'alloc is being migrated', index, plan);
        linkFor.set(name, a);
      } else if (
        !gate.holdOldVersions &&
        (a.alloc.JobVersion ?? 0) < (job.Version ?? 0) &&
        groupSpec(a.job, group.Name) !== groupSpec(job, group.Name)
      ) {
        stop(ctx, a, 'alloc is being updated due to job update', index, plan);
        linkFor.set(name, a);
      }
    }
    if (a.runtime.awaitingReplacement) {
      // A stopped allocation of the same name keeps the link, whichever of the two comes first.
      if (!a.alloc.NextAllocation && !linkFor.has(name)) linkFor.set(name, a);
      a.runtime.awaitingReplacement = false;
    }
    const covering =
      (isLive(a.alloc) && !(a.alloc.ClientStatus === 'unknown' && replaceUnknown)) ||
      (job.Type === 'batch' && a.alloc.ClientStatus === 'complete' && !isServerTerminal(a.alloc));
    if (!covering) continue;
    const i = slotOf(a);
    if (i >= count && isLive(a.alloc)) excess.push({ a, i });
    else covered.add(i);
  }
  for (const { a } of excess.sort((x, y) => x.i - y.i)) {
    stop(ctx, a, 'alloc not needed due to job update', index, plan);
  }
  const wanted: number[] = [];
  for (let i = 0; i < count; i++) if (!covered.has(i)) wanted.push(i);
  const canaries = gate.canariesToPlace;
  if (wanted.length === 0 && canaries === 0) return;
  const feasibility = feasibleNodes(ctx.store, job, group);
  const slots = new SlotTracker(ctx.store, jobRecord.namespace, jobRecord.id);
  for (const stopped of plan.stopped) if (stopped.alloc.NodeID) slots.release(stopped.alloc.NodeID);
  const picker = new NodePicker(feasibility, slots, ctx.random);
  const placeOne = (name: string, previous: AllocRecord | undefined): AllocRecord | undefined => {
    const node = picker.pick();
    if (!node) {
      plan.queued[group.Name] = (plan.queued[group.Name] ?? 0) + 1;
      plan.failed[group.Name] = feasibility.metric;
      return undefined;
    }
    const placed = place(ctx, job, group, name, node, evaluation, index, previous);
    plan.placed.push(placed);
    return placed;
  };
  for (const i of wanted) {
    const name = `${job.ID}.${group.Name}[${i}]`;
    placeOne(name, linkFor.get(name));
  }
  for (let c = 0; c < canaries; c++) {
    const placed = placeOne(`${job.ID}.${group.Name}[${c}]`, undefined);
    if (placed) noteCanaryPlaced(ctx, job, group, placed, index);
  }
}

function reconcileSystem(work: GroupWork): void {
  const { ctx, jobRecord, group, evaluation, index, plan } = work;
  const job = jobRecord.job;
  const sysbatch = job.Type === 'sysbatch';
  const name = `${job.ID}.${group.Name}[0]`;
  const allocs = groupAllocs(ctx, jobRecord, group);
  const feasibility = feasibleNodes(ctx.store, job, group);
  const feasibleIds = new Set(feasibility.feasible.map((n) => n.node.ID));
  const slots = new SlotTracker(ctx.store, jobRecord.namespace, jobRecord.id);
  for (const node of ctx.store.nodes.values()) {
    const onNode = allocs.filter((a) => a.alloc.NodeID === node.node.ID);
    const live = onNode.filter((a) => isLive(a.alloc));
    // The slot counts as filled for this whole pass if anything lived here at its start,
    // which is why a stop alone never brings a system allocation back (Nomad's
    // `scheduler/scheduler_system.go`).
    const occupied =
      live.length > 0 || (sysbatch && onNode.some((a) => (a.alloc.JobVersion ?? 0) === (job.Version ?? 0)));
    let destructive: AllocRecord | undefined;
    for (const a of live) {
      if (job.Stop) stop(ctx, a, 'alloc not needed due to job update', index, plan);
      else if (a.alloc.DesiredTransition?.Migrate && a.alloc.ClientStatus !== 'unknown') {
        stop(ctx, a, 'alloc not needed as node is tainted', index, plan);
      } else if (
        (a.alloc.JobVersion ?? 0) < (job.Version ?? 0) &&
        groupSpec(a.job, group.Name) !== groupSpec(job, group.Name)
      ) {
        stop(ctx, a, 'alloc is being updated due to job update', index, plan);
        destructive = a;
      }
    }
    if (job.Stop || !feasibleIds.has(node.node.ID)) continue;
    if (occupied && !destructive) continue;
    if (!destructive && !slots.hasRoom(node)) {
      feasibility.metric.NodesExhausted = (feasibility.metric.NodesExhausted ?? 0) + 1;
      feasibility.metric.DimensionExhausted = { slots: feasibility.metric.NodesExhausted };
      plan.failed[group.Name] = feasibility.metric;
      plan.queued[group.Name] = (plan.queued[group.Name] ?? 0) + 1;
      continue;
    }
    const previous =
      destructive ??
      onNode
        .filter((a) => !isLive(a.alloc) && !a.alloc.NextAllocation && a.alloc.Name === name)
        .sort((x, y) => y.alloc.CreateIndex - x.alloc.CreateIndex)[0];
    slots.take(node.node.ID);
    plan.placed.push(place(ctx, job, group, name, node, evaluation, index, previous));
  }
}

function finishEvaluation(
  ctx: SimContext,
  job: Job | undefined,
  evaluation: Evaluation,
  index: number,
  plan: Plan,
): void {
  const failedGroups = Object.keys(plan.failed);
  evaluation.ModifyIndex = index;
  evaluation.ModifyTime = nowNs(ctx);
  const blockedOfJob = ctx.store
    .evalsOfJob(evaluation.Namespace ?? 'default', evaluation.JobID)
    .filter((e) => e.Status === 'blocked' && e.ID !== evaluation.ID);
  if (failedGroups.length === 0) {
    evaluation.Status = 'complete';
    // The job is satisfied: older blocked evaluations have nothing left to place.
    for (const blocked of blockedOfJob) cancelEval(ctx, blocked, index);
    return;
  }
  evaluation.FailedTGAllocs = plan.failed;
  evaluation.QueuedAllocations = plan.queued;
  if (evaluation.Status === 'blocked') return;
  evaluation.Status = 'complete';
  if (!job) return;
  for (const blocked of blockedOfJob) cancelEval(ctx, blocked, index);
  const blocked = createEvaluation(ctx, index, job, 'queued-allocs', {
    Status: 'blocked',
    StatusDescription: 'created to place remaining allocations',
    PreviousEval: evaluation.ID,
    FailedTGAllocs: structuredClone(plan.failed),
    QueuedAllocations: { ...plan.queued },
  });
  evaluation.BlockedEval = blocked.ID;
}

function cancelEval(ctx: SimContext, evaluation: Evaluation, index: number): void {
  evaluation.Status = 'canceled';
  evaluation.StatusDescription = 'evaluation superseded by a newer blocked evaluation';
  evaluation.ModifyIndex = index;
  evaluation.ModifyTime = nowNs(ctx);
}

/** Re-runs every blocked evaluation (capacity changed: a node became ready or eligible, or an allocation ended). */
export function unblockEvaluations(ctx: SimContext): void {
  const blocked = [...ctx.store.evals.values()].filter((e) => e.Status === 'blocked').map((e) => e.ID);
  for (const id of blocked) enqueueEvaluation(ctx, id);
}
