/**
 * The simulated cluster: the write operations behind the HTTP endpoints and the control
 * API (register, stop, evaluate, restart, nodes, deployments, seeding), on one
 * {@link SimContext}.
 */
import type { Job, JobRegisterResponse, Node } from '../../lib/nomad/types';
import { type SimClock, TimerSet } from '../clock';
import { ConsulCatalog } from '../consul/catalog';
import { syncConsulServices } from '../consul/registrations';
import { SimControlError, SimHttpError } from '../errors';
import {
  Behaviours,
  type SimCheckBehaviour,
  type SimConsulCheckScript,
  type SimCrash,
  type SimTarget,
} from './behaviours';
import { restartAllocation, startPendingNow, touchAlloc } from './client';
import { DEFAULT_TIMING, newId, nowNs, type SimContext, type SimTiming } from './context';
import { createDeployment, setDeploymentStatus, watchDeploymentHealth } from './deployments';
import { createEvaluation } from './evaluations';
import { canonicalizeJob, specOf, validateJob } from './job-spec';
import {
  type ControlNodeStatus,
  type NodePoolSpec,
  type NodeSpec,
  setNodeEligibility,
  setNodeStatus,
} from './nodes';
import { enqueueEvaluation, unblockEvaluations } from './scheduler';
import { type AllocRecord, type JobRecord, jobKey, Store } from './store';
import { VariableStore } from './variables';

/** Nomad keeps this many versions of a job (`JobTrackedVersions`). */
export const TRACKED_VERSIONS = 6;

export class Cluster {
  readonly ctx: SimContext;
  /** Nomad Variables and their locks. */
  readonly variables: VariableStore;

  /** @param leaseClock the clock of variable locks' TTLs (see `SimulatorOptions.leaseClock`). */
  constructor(
    clock: SimClock,
    random: () => number,
    timing: Partial<SimTiming>,
    leaseClock: SimClock = clock,
  ) {
    const store = new Store();
    this.ctx = {
      store,
      clock,
      timers: new TimerSet(clock),
      random,
      timing: { ...DEFAULT_TIMING, ...timing },
      hooks: {
        allocRunning: (record) => watchDeploymentHealth(this.ctx, record),
        capacityChanged: () => unblockEvaluations(this.ctx),
        tasksChanged: (record) => syncConsulServices(this.ctx, record),
      },
      behaviours: new Behaviours(),
      consul: new ConsulCatalog(store),
    };
    this.variables = new VariableStore(this.ctx, new TimerSet(leaseClock));
  }

  /** Empties the cluster and cancels every pending timer. */
  reset(): void {
    this.variables.clear();
    this.ctx.timers.cancelAll();
    for (const record of this.ctx.store.allocs.values()) {
      for (const cancel of record.runtime.cancels) cancel();
      for (const cancel of record.runtime.taskTimers.values()) cancel();
    }
    this.ctx.consul.clear();
    this.ctx.store.clear();
    this.ctx.behaviours.clear();
  }

  addNamespace(name: string): void {
    if (this.ctx.store.namespaces.has(name)) return;
    this.ctx.store.write(['namespaces'], (index) => {
      this.ctx.store.namespaces.set(name, {
        Name: name,
        Description: '',
        CreateIndex: index,
        ModifyIndex: index,
      });
    });
  }

  /** Adds a node pool, or updates its description and meta. */
  addNodePool(spec: NodePoolSpec): void {
    const { store } = this.ctx;
    store.write(['node_pools'], (index) => {
      const existing = store.nodePools.get(spec.name);
      store.nodePools.set(spec.name, {
        Name: spec.name,
        Description: spec.description ?? existing?.Description ?? '',
        Meta: spec.meta ?? existing?.Meta ?? null,
        SchedulerConfiguration: null,
        CreateIndex: existing?.CreateIndex ?? index,
        ModifyIndex: index,
      });
    });
  }

  addNode(spec: NodeSpec): Node {
    const id = spec.id ?? newId(this.ctx);
    // As Nomad's `Node.Register`: a node names its pool, which is created if it does not exist.
    if (!this.ctx.store.nodePools.has(spec.pool ?? 'default'))
      this.addNodePool({ name: spec.pool ?? 'default' });
    return this.ctx.store.write(['nodes'], (index) => {
      // The client library's `Node` has no `Meta`; Nomad's node does, and filters select on it.
      const node: Node & { Meta: Record<string, string> } = {
        ID: id,
        Name: spec.name,
        Address: '127.0.0.1',
        Datacenter: spec.datacenter ?? 'dc1',
        NodeClass: spec.class ?? '',
        NodePool: spec.pool ?? 'default',
        Status: spec.status ?? 'ready',
        SchedulingEligibility: spec.eligible === false ? 'ineligible' : 'eligible',
        Drain: false,
        Meta: spec.meta ?? {},
        Drivers: spec.drivers
          ? Object.fromEntries(spec.drivers.map((d) => [d, { Detected: true, Healthy: true }]))
          : null,
        CreateIndex: index,
        ModifyIndex: index,
      };
      this.ctx.store.nodes.set(id, { node, capacity: spec.capacity });
      return node;
    });
  }

  /**
   * Registers (or updates) a job: validates, bumps the version when the spec changed (keeping
   * the last 6), creates a deployment when it has an update block, and a `job-register`
   * evaluation unless it is a periodic or parameterized parent.
   * @param instant place and start allocations synchronously (scenario seeding).
   * @throws SimHttpError 400 for an invalid job, 500 for a missing namespace.
   */
  registerJob(
    input: Job,
    namespace = 'default',
    instant = false,
  ): JobRegisterResponse & { EvalID: string; Index: number } {
    validateJob(input);
    const ns = input.Namespace || namespace || 'default';
    if (!this.ctx.store.namespaces.has(ns)) {
      throw new SimHttpError(500, `job "${input.ID}" is in nonexistent namespace "${ns}"`);
    }
    const job = canonicalizeJob(input, ns);
    const key = jobKey(ns, job.ID);
    const { store } = this.ctx;
    const result = store.write(['jobs', 'job_summary', 'job_version', 'evals', 'deployment'], (index) => {
      const existing = store.jobs.get(key);
      const changed = !existing || specOf(canonicalizeJob(existing.job, ns)) !== specOf(job);
      job.Version = existing ? (existing.job.Version ?? 0) : 0;
      if (existing && changed) job.Version = (existing.job.Version ?? 0) + 1;
      job.CreateIndex = existing?.job.CreateIndex ?? index;
      job.ModifyIndex = index;
      job.JobModifyIndex = changed ? index : (existing?.job.JobModifyIndex ?? index);
      job.SubmitTime = nowNs(this.ctx);
      job.Status = 'pending';
      const record: JobRecord = existing ?? {
        namespace: ns,
        id: job.ID,
        job,
        versions: [],
        summaryCreateIndex: index,
        summaryModifyIndex: index,
      };
      record.job = job;
      record.summaryModifyIndex = index;
      if (changed) record.versions = [job, ...record.versions].slice(0, TRACKED_VERSIONS);
      else record.versions[0] = job;
      store.jobs.set(key, record);
      if (changed) createDeployment(this.ctx, index, job);
      if (job.Periodic || job.ParameterizedJob)
        return { EvalID: '', EvalCreateIndex: 0, JobModifyIndex: index, Index: index };
      const evaluation = createEvaluation(this.ctx, index, job, 'job-register');
      return {
        EvalID: evaluation.ID,
        EvalCreateIndex: index,
        JobModifyIndex: index,
        Index: index,
        Warnings: '',
      };
    });
    if (result.EvalID) enqueueEvaluation(this.ctx, result.EvalID, instant);
    return result;
  }

  /**
   * `PUT /v1/allocation/:id/stop` (Nomad's `nomad/alloc_endpoint.go` `Alloc.Stop`): one write
   * merges the desired transition and creates the `alloc-stop` evaluation; the scheduler acts on it
   * after its delay.
   */
  stopAllocation(
    record: AllocRecord,
    noShutdownDelay: boolean,
    reschedule: boolean,
  ): { EvalID: string; Index: number } {
    const { store } = this.ctx;
    const job =
      store.jobs.get(jobKey(record.alloc.Namespace ?? 'default', record.alloc.JobID))?.job ?? record.job;
    const result = store.write(['allocs', 'evals', 'job_summary'], (index) => {
      record.alloc.DesiredTransition = {
        ...record.alloc.DesiredTransition,
        Migrate: true,
        NoShutdownDelay: noShutdownDelay,
        Reschedule: reschedule,
      };
      touchAlloc(this.ctx, record, index);
      const evaluation = createEvaluation(this.ctx, index, job, 'alloc-stop');
      return { EvalID: evaluation.ID, Index: index };
    });
    enqueueEvaluation(this.ctx, result.EvalID);
    return result;
  }

  /**
   * `PUT /v1/job/:id/evaluate` (Nomad's `nomad/job_endpoint.go` `Job.Evaluate`). With
   * `forceReschedule`, failed allocations without a replacement are marked `ForceReschedule` in the
   * same write.
   * @throws SimHttpError 500 for periodic and parameterized parents.
   */
  evaluateJob(record: JobRecord, forceReschedule: boolean) {
    const job = record.job;
    if (job.Periodic) throw new SimHttpError(500, "can't evaluate periodic job");
    if (job.ParameterizedJob) throw new SimHttpError(500, "can't evaluate parameterized job");
    const { store } = this.ctx;
    const result = store.write(['evals', 'allocs', 'job_summary'], (index) => {
      if (forceReschedule) {
        for (const a of store.allocsOfJob(record.namespace, record.id)) {
          if (a.alloc.ClientStatus === 'failed' && !a.alloc.NextAllocation) {
            a.alloc.DesiredTransition = { ...a.alloc.DesiredTransition, ForceReschedule: true };
            touchAlloc(this.ctx, a, index);
          }
        }
      }
      const evaluation = createEvaluation(this.ctx, index, job, 'job-register');
      return {
        EvalID: evaluation.ID,
        EvalCreateIndex: index,
        JobModifyIndex: job.JobModifyIndex ?? 0,
        Index: index,
      };
    });
    enqueueEvaluation(this.ctx, result.EvalID);
    return result;
  }

  /**
   * In-place restart on the client (Nomad's `client/alloc_endpoint.go` `Allocations.Restart`);
   * resolves after the kill.
   */
  restartAllocation(record: AllocRecord, taskName: string, allTasks: boolean): Promise<void> {
    return restartAllocation(this.ctx, record, taskName, allTasks);
  }

  /**
   * Starts a pending allocation now instead of after `allocStartMs`: a client that was slow
   * to start it catches up.
   * @throws SimControlError for an unknown allocation, or one that is not pending on a ready node.
   */
  startPendingAllocation(id: string): void {
    const record = this.ctx.store.allocs.get(id);
    if (!record) throw new SimControlError(`Unknown allocation "${id}"`);
    if (!startPendingNow(this.ctx, record)) {
      throw new SimControlError(
        `Allocation "${id}" is not pending on a ready node (client status "${record.alloc.ClientStatus}")`,
      );
    }
  }

  /** Removes an allocation from the state, as Nomad's garbage collector does. */
  garbageCollect(id: string): void {
    if (!this.ctx.store.allocs.has(id)) throw new SimControlError(`Unknown allocation "${id}"`);
    this.ctx.store.write(['allocs'], () => this.ctx.store.removeAlloc(id));
  }

  /**
   * How the Nomad service check `check` answers from its next run on, in the target's
   * allocations (a job's: those placed later too).
   * @throws SimControlError for an unknown allocation or job.
   */
  setCheckBehaviour(target: SimTarget, check: string, behaviour: SimCheckBehaviour): void {
    this.requireTarget(target);
    this.ctx.behaviours.setCheck(target, check, behaviour, this.ctx.clock.now());
  }

  /**
   * How the Consul check named `check` answers the simulated Consul agent from its next run on.
   * @throws SimControlError for an unknown allocation or job.
   */
  setConsulCheck(target: SimTarget, check: string, script: SimConsulCheckScript): void {
    this.requireTarget(target);
    this.ctx.behaviours.setConsulCheck(target, check, script, this.ctx.clock.now());
  }

  /**
   * Crash on start: from now on `task` (every task when undefined) of the target exits with an
   * error as it starts, and its group's restart policy decides what follows.
   * @throws SimControlError for an unknown allocation or job.
   */
  crashOnStart(target: SimTarget, task: string | undefined, crash: SimCrash): void {
    this.requireTarget(target);
    this.ctx.behaviours.setCrash(target, task, crash, this.ctx.clock.now());
  }

  private requireTarget(target: SimTarget): void {
    const { store } = this.ctx;
    if (target.allocationId !== undefined) {
      if (!store.allocs.has(target.allocationId))
        throw new SimControlError(`Unknown allocation "${target.allocationId}"`);
    } else if (!store.jobs.has(jobKey(target.namespace ?? 'default', target.jobId))) {
      throw new SimControlError(
        `Unknown job "${target.jobId}" in namespace "${target.namespace ?? 'default'}"`,
      );
    }
  }

  setNodeStatus(nodeId: string, status: ControlNodeStatus): void {
    setNodeStatus(this.ctx, nodeId, status);
  }

  setNodeEligibility(nodeId: string, eligible: boolean): void {
    setNodeEligibility(this.ctx, nodeId, eligible);
  }

  /**
   * Sets a deployment's status; `successful` promotes canaries and lets the update go on.
   * @throws SimControlError for an unknown deployment.
   */
  setDeploymentStatus(id: string, status: string): void {
    const deployment = setDeploymentStatus(this.ctx, id, status);
    if (!deployment) throw new SimControlError(`Unknown deployment "${id}"`);
    const record = this.ctx.store.jobs.get(jobKey(deployment.Namespace ?? 'default', deployment.JobID));
    if (status === 'successful' && record) {
      const evalId = this.ctx.store.write(
        ['evals'],
        (index) => createEvaluation(this.ctx, index, record.job, 'deployment-watcher').ID,
      );
      enqueueEvaluation(this.ctx, evalId);
    }
  }
}
