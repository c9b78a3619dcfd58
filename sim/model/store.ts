/**
 * The simulator's state store: the raft-like global index, per-table indexes, the objects,
 * and the waiter lists that make blocking queries cheap (Nomad's `command/agent/http.go`
 * `parseWait`). A blocked query registers one waiter on the tables its resource index depends on; a
 * write to a table checks only that table's waiters, so 1,000 held queries cost a closure each, not
 * a poll.
 */
import type {
  Allocation,
  AllocCheckStatus,
  Deployment,
  Evaluation,
  Job,
  Node,
  Service,
  ServiceCheck,
} from '../../lib/nomad/types';
import { isLive } from './status';

/** Tables with their own "last index", as in Nomad's state store. */
/** One check running on an allocation's client. */
export interface SimCheck {
  readonly spec: ServiceCheck;
  readonly service: Service;
  /** The task of a task-level service; group services watch every main task. */
  readonly task: string | undefined;
  result: AllocCheckStatus;
  /** Runs since the allocation's last restart that found the service up (flapping counts these). */
  upRunsSinceRestart: number;
  /** Every result so far (the pending stub first), newest last, capped: what tests read back. */
  history: SimCheckRun[];
}

/** One result of a check and the simulated Unix ms it was produced. */
export interface SimCheckRun {
  readonly time: number;
  readonly result: AllocCheckStatus;
}

export type Table =
  | 'jobs'
  | 'job_summary'
  | 'job_version'
  | 'allocs'
  | 'evals'
  | 'deployment'
  | 'nodes'
  | 'namespaces'
  | 'node_pools'
  /** Nomad's variables table: every write of a variable, lock operations included. */
  | 'variables'
  /** The simulator's Consul catalog (services and checks the clients register there). */
  | 'consul';

/** A job and its tracked versions. */
export interface JobRecord {
  namespace: string;
  id: string;
  /** The current version, as served by `GET /v1/job/:id`. */
  job: Job;
  /** Newest first; Nomad keeps the last 6 (`JobTrackedVersions`). */
  versions: Job[];
  summaryCreateIndex: number;
  summaryModifyIndex: number;
}

/** Client-side bookkeeping the server view does not show. */
export interface AllocRuntime {
  /** Pending timers of the task runners (run_for, start, kill). */
  cancels: Set<() => void>;
  /** Client status before the node disconnected, restored on reconnect. */
  statusBeforeDisconnect?: string;
  /** Set when the node was lost or disconnected: the next evaluation links a replacement to it. */
  awaitingReplacement?: boolean;
  /** Simulated ms when the allocation was first seen running (for `longest_running`). */
  runningSince?: number;
  /** Restarts of all the allocation's tasks at once: each registers its group's Consul services again. */
  groupServiceRuns?: number;
  /** Placed by scenario seeding: running a while already (its Consul checks have passed). */
  seeded?: boolean;
  /** The main tasks were started (prestart tasks are done). */
  mainStarted?: boolean;
  /** The index in the allocation's name (`job.group[3]` → 3), parsed once by `slotOf`. */
  nameIndex?: number;
  /** Per-task timers (`run_for`), cancelled when the task restarts or is killed. */
  taskTimers: Map<string, () => void>;
  /** The Nomad service checks the client runs, by check ID; unset before the start and after the kill. */
  checks?: Map<string, SimCheck> | undefined;
  /** The checks as they were when purged (their history stays readable for tests). */
  purgedChecks?: Map<string, SimCheck>;
  /** Simulated ms of the last user-requested restart. */
  lastRestartAt?: number;
  /** Counted in the store's live allocations of its node (kept by {@link Store.noteAllocChanged}). */
  countedLive?: boolean;
  /** Per-task restart tracker of the group's restart policy: restarts counted in the current interval. */
  restartTrackers?: Map<string, { count: number; intervalStart: number }>;
}

/** An allocation: the wire object (without `Job`) plus its job version and client runtime. */
export interface AllocRecord {
  alloc: Allocation;
  job: Job;
  runtime: AllocRuntime;
}

/** A node pool as `GET /v1/node/pool/:name` serves it. */
export interface NodePool {
  Name: string;
  Description: string;
  Meta: Record<string, string> | null;
  SchedulerConfiguration: null;
  CreateIndex: number;
  ModifyIndex: number;
}

/** Nomad's two built-in pools (`nomad/structs/node_pool.go`), which every cluster has. */
const BUILT_IN_POOLS: readonly NodePool[] = [
  {
    Name: 'all',
    Description: 'Node pool with all nodes in the cluster.',
    Meta: null,
    SchedulerConfiguration: null,
    CreateIndex: 1,
    ModifyIndex: 1,
  },
  {
    Name: 'default',
    Description: 'Default node pool.',
    Meta: null,
    SchedulerConfiguration: null,
    CreateIndex: 1,
    ModifyIndex: 1,
  },
];

/** A node and its capacity in allocation slots (`undefined`: unlimited). */
export interface NodeRecord {
  node: Node;
  capacity: number | undefined;
}

interface Waiter {
  tables: readonly Table[];
  ready: () => boolean;
  wake: () => void;
}

const TABLES: readonly Table[] = [
  'jobs',
  'job_summary',
  'job_version',
  'allocs',
  'evals',
  'deployment',
  'nodes',
  'namespaces',
  'node_pools',
  'variables',
  'consul',
];

/** Key of a job inside the maps: namespace and ID, which together are unique. */
export function jobKey(namespace: string, id: string): string {
  return `${namespace}\u0000${id}`;
}

/** All simulator state. Mutations happen inside {@link Store.write}. */
export class Store {
  index = 0;
  readonly tableIndex = new Map<Table, number>();
  readonly namespaces = new Map<
    string,
    { Name: string; Description: string; CreateIndex: number; ModifyIndex: number }
  >();
  readonly jobs = new Map<string, JobRecord>();
  readonly allocs = new Map<string, AllocRecord>();
  readonly evals = new Map<string, Evaluation>();
  readonly deployments = new Map<string, Deployment>();
  readonly nodes = new Map<string, NodeRecord>();
  readonly nodePools = new Map<string, NodePool>();
  // The indexes hold the records themselves: a scheduler pass over a 50,000-allocation job reads
  // them many times, and a lookup by ID per record and pass was a third of its time.
  private readonly allocsByJob = new Map<string, Map<string, AllocRecord>>();
  private readonly allocsByNode = new Map<string, Map<string, AllocRecord>>();
  private readonly evalsByJob = new Map<string, Map<string, Evaluation>>();
  // Live allocations per node, kept as allocations change rather than counted per scheduler pass:
  // counting scanned every allocation of every node for each job placed, which made seeding a
  // 5,000-job fleet quadratic.
  private readonly liveByNode = new Map<string, number>();
  private readonly liveUnsettled = new Set<AllocRecord>();
  private readonly liveChangedInWrite = new Set<AllocRecord>();
  private readonly waiters = new Map<Table, Set<Waiter>>();
  private readonly writeListeners = new Set<() => void>();

  constructor() {
    this.clear();
  }

  /** Forgets every object (indexes restart at 1 so "never blocked" stays true). */
  clear(): void {
    this.index = 1;
    for (const table of TABLES) this.tableIndex.set(table, 1);
    this.namespaces.clear();
    this.jobs.clear();
    this.allocs.clear();
    this.evals.clear();
    this.deployments.clear();
    this.nodes.clear();
    this.allocsByJob.clear();
    this.allocsByNode.clear();
    this.evalsByJob.clear();
    this.liveByNode.clear();
    this.liveUnsettled.clear();
    this.liveChangedInWrite.clear();
    this.nodePools.clear();
    for (const pool of BUILT_IN_POOLS) this.nodePools.set(pool.Name, { ...pool });
    this.namespaces.set('default', {
      Name: 'default',
      Description: 'Default shared namespace',
      CreateIndex: 1,
      ModifyIndex: 1,
    });
  }

  /** The last index of a table. */
  last(table: Table): number {
    return this.tableIndex.get(table) ?? 1;
  }

  /**
   * One atomic write at a new global index: `fn` mutates objects (stamping them with the
   * index), then the touched tables move to that index and their waiters are checked.
   */
  write<T>(tables: readonly Table[], fn: (index: number) => T): T {
    this.index += 1;
    const index = this.index;
    const result = fn(index);
    // A change noted before its last mutation in the write is settled again here.
    for (const record of this.liveChangedInWrite) this.liveUnsettled.add(record);
    this.liveChangedInWrite.clear();
    this.settleLive();
    for (const table of tables) this.tableIndex.set(table, index);
    this.notify(tables);
    return result;
  }

  /**
   * Registers a blocking-query waiter; `wake` runs once, the first time `ready()` holds after a
   * write to one of `tables`. Returns a function that removes the waiter (timeout, disconnect).
   */
  watch(tables: readonly Table[], ready: () => boolean, wake: () => void): () => void {
    const waiter: Waiter = { tables, ready, wake };
    for (const table of tables) {
      let set = this.waiters.get(table);
      if (!set) {
        set = new Set();
        this.waiters.set(table, set);
      }
      set.add(waiter);
    }
    return () => this.unwatch(waiter);
  }

  /** Calls `fn` after every write (used by `waitFor`); returns an unsubscribe function. */
  onWrite(fn: () => void): () => void {
    this.writeListeners.add(fn);
    return () => this.writeListeners.delete(fn);
  }

  /** Number of blocking queries currently held (for tests and the benchmark). */
  heldQueries(): number {
    const all = new Set<Waiter>();
    for (const set of this.waiters.values()) for (const waiter of set) all.add(waiter);
    return all.size;
  }

  /** Drops every waiter without waking it (the server is closing). */
  dropWaiters(): void {
    this.waiters.clear();
  }

  insertAlloc(record: AllocRecord): void {
    const { alloc } = record;
    this.allocs.set(alloc.ID, record);
    addTo(this.allocsByJob, jobKey(alloc.Namespace ?? 'default', alloc.JobID), alloc.ID, record);
    if (alloc.NodeID) addTo(this.allocsByNode, alloc.NodeID, alloc.ID, record);
    this.noteAllocChanged(record);
  }

  /** Records that an allocation's status may have changed (every write to it goes through here). */
  noteAllocChanged(record: AllocRecord): void {
    this.liveUnsettled.add(record);
    this.liveChangedInWrite.add(record);
  }

  /** Live allocations on a node, of every job ({@link isLive}). */
  liveAllocsOnNode(nodeId: string): number {
    this.settleLive();
    return this.liveByNode.get(nodeId) ?? 0;
  }

  private settleLive(): void {
    for (const record of this.liveUnsettled) {
      const nodeId = record.alloc.NodeID;
      const live = Boolean(nodeId) && isLive(record.alloc) && this.allocs.get(record.alloc.ID) === record;
      if (nodeId && live !== (record.runtime.countedLive ?? false)) {
        this.liveByNode.set(nodeId, (this.liveByNode.get(nodeId) ?? 0) + (live ? 1 : -1));
        record.runtime.countedLive = live;
      }
    }
    this.liveUnsettled.clear();
  }

  /** Forgets an allocation (Nomad's garbage collector), from the table and its indexes. */
  removeAlloc(id: string): void {
    const record = this.allocs.get(id);
    if (record === undefined) return;
    const { alloc } = record;
    this.allocs.delete(id);
    this.noteAllocChanged(record);
    this.settleLive();
    this.allocsByJob.get(jobKey(alloc.Namespace ?? 'default', alloc.JobID))?.delete(id);
    if (alloc.NodeID) this.allocsByNode.get(alloc.NodeID)?.delete(id);
  }

  insertEval(evaluation: Evaluation): void {
    this.evals.set(evaluation.ID, evaluation);
    addTo(
      this.evalsByJob,
      jobKey(evaluation.Namespace ?? 'default', evaluation.JobID),
      evaluation.ID,
      evaluation,
    );
  }

  allocsOfJob(namespace: string, jobId: string): AllocRecord[] {
    return [...(this.allocsByJob.get(jobKey(namespace, jobId))?.values() ?? [])];
  }

  allocsOfNode(nodeId: string): AllocRecord[] {
    return [...(this.allocsByNode.get(nodeId)?.values() ?? [])];
  }

  evalsOfJob(namespace: string, jobId: string): Evaluation[] {
    return [...(this.evalsByJob.get(jobKey(namespace, jobId))?.values() ?? [])];
  }

  private notify(tables: readonly Table[]): void {
    const due: Waiter[] = [];
    for (const table of tables) {
      const set = this.waiters.get(table);
      if (!set) continue;
      for (const waiter of set) if (waiter.ready()) due.push(waiter);
    }
    for (const waiter of due) {
      this.unwatch(waiter);
      waiter.wake();
    }
    for (const listener of this.writeListeners) listener();
  }

  private unwatch(waiter: Waiter): void {
    for (const table of waiter.tables) this.waiters.get(table)?.delete(waiter);
  }
}

function addTo<T>(map: Map<string, Map<string, T>>, key: string, id: string, value: T): void {
  let byId = map.get(key);
  if (!byId) {
    byId = new Map();
    map.set(key, byId);
  }
  byId.set(id, value);
}
