/**
 * Feasibility and node choice. Resources are modelled as allocation slots per node
 * (`capacity`, unlimited by default); drivers, datacenters, node class and simple
 * constraints filter nodes. The metrics follow Nomad's `AllocationMetric` so the CLI's
 * placement-failure text (Nomad's `command/monitor.go` `formatAllocMetrics`) comes out the same.
 */
import type { AllocationMetric, Constraint, Job, TaskGroup } from '../../lib/nomad/types';
import { isLive } from './status';
import type { NodeRecord, Store } from './store';

/** Nodes that passed every filter, plus the metrics of the pass. */
export interface Feasibility {
  feasible: NodeRecord[];
  metric: AllocationMetric;
}

/** Go's glob for `datacenters` (only `*` is special). */
function globMatch(pattern: string, value: string): boolean {
  if (!pattern.includes('*')) return pattern === value;
  const re = new RegExp(`^${pattern.split('*').map(escapeRe).join('.*')}$`);
  return re.test(value);
}

function escapeRe(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

/** Interpolation syntax of a node attribute, e.g. `${node.class}`. */
function attr(path: string): string {
  return `\${${path}}`;
}

const NODE_CLASS = attr('node.class');

const TARGETS: Record<string, (record: NodeRecord) => string> = {
  [NODE_CLASS]: (r) => r.node.NodeClass ?? '',
  [attr('node.datacenter')]: (r) => r.node.Datacenter ?? '',
  [attr('node.unique.name')]: (r) => r.node.Name ?? '',
  [attr('node.unique.id')]: (r) => r.node.ID,
  [attr('node.pool')]: (r) => r.node.NodePool ?? 'default',
};

function resolveTarget(target: string | undefined, record: NodeRecord): string | undefined {
  const resolve = target === undefined ? undefined : TARGETS[target];
  return resolve ? resolve(record) : target;
}

/** Evaluates the constraint operands the simulator knows; unknown operands always pass. */
function satisfies(constraint: Constraint, record: NodeRecord): boolean {
  const left = resolveTarget(constraint.LTarget, record);
  const right = constraint.RTarget ?? '';
  switch (constraint.Operand ?? '=') {
    case '=':
    case '==':
    case 'is':
      return left === right;
    case '!=':
    case 'not':
      return left !== right;
    case 'regexp':
      return new RegExp(right).test(left ?? '');
    default:
      return true;
  }
}

function bump(map: Record<string, number>, key: string): void {
  map[key] = (map[key] ?? 0) + 1;
}

/** Filters the cluster's nodes for one task group, recording Nomad-style metrics. */
export function feasibleNodes(store: Store, job: Job, group: TaskGroup): Feasibility {
  const datacenters = job.Datacenters && job.Datacenters.length > 0 ? job.Datacenters : ['*'];
  // A job runs only on the nodes of its node pool; the built-in pool `all` spans every node.
  const pool = (job as Job & { NodePool?: string }).NodePool || 'default';
  const all = [...store.nodes.values()].filter(
    (r) => pool === 'all' || (r.node.NodePool ?? 'default') === pool,
  );
  const nodesAvailable: Record<string, number> = {};
  const classFiltered: Record<string, number> = {};
  const constraintFiltered: Record<string, number> = {};
  const candidates = all.filter(
    (r) =>
      r.node.Status === 'ready' &&
      r.node.SchedulingEligibility !== 'ineligible' &&
      datacenters.some((dc) => globMatch(dc, r.node.Datacenter ?? 'dc1')),
  );
  for (const r of candidates) bump(nodesAvailable, r.node.Datacenter ?? 'dc1');
  const drivers = new Set((group.Tasks ?? []).map((t) => t.Driver).filter((d): d is string => Boolean(d)));
  const constraints = [...(job.Constraints ?? []), ...(group.Constraints ?? [])];
  const feasible: NodeRecord[] = [];
  let filtered = 0;
  for (const r of candidates) {
    const known = r.node.Drivers;
    if (known && [...drivers].some((d) => !known[d]?.Detected)) {
      bump(constraintFiltered, 'missing drivers');
      filtered++;
      continue;
    }
    const failed = constraints.find((c) => !satisfies(c, r));
    if (failed) {
      if (failed.LTarget === NODE_CLASS) bump(classFiltered, r.node.NodeClass ?? '');
      else bump(constraintFiltered, `${failed.LTarget} ${failed.Operand ?? '='} ${failed.RTarget}`);
      filtered++;
      continue;
    }
    feasible.push(r);
  }
  return {
    feasible,
    metric: {
      NodesInPool: all.length,
      NodesEvaluated: candidates.length,
      NodesFiltered: filtered,
      NodesAvailable: nodesAvailable,
      ClassFiltered: Object.keys(classFiltered).length > 0 ? classFiltered : null,
      ConstraintFiltered: Object.keys(constraintFiltered).length > 0 ? constraintFiltered : null,
      NodesExhausted: 0,
      ClassExhausted: null,
      DimensionExhausted: null,
      QuotaExhausted: null,
    },
  };
}

/**
 * Tracks slot usage during one scheduler pass so that a job with 10,000 placements does not
 * rescan the allocation table per placement.
 */
export class SlotTracker {
  private readonly used = new Map<string, number>();
  private readonly jobUsed = new Map<string, number>();
  private jobCounted = false;

  constructor(
    private readonly store: Store,
    private readonly namespace: string,
    private readonly jobId: string,
  ) {}

  /** Live allocations on the node (all jobs). */
  usage(nodeId: string): number {
    let n = this.used.get(nodeId);
    if (n === undefined) {
      n = this.store.liveAllocsOnNode(nodeId);
      this.used.set(nodeId, n);
    }
    return n;
  }

  /** Live allocations of the job being scheduled on the node. */
  jobUsage(nodeId: string): number {
    if (!this.jobCounted) {
      // One pass over the job's own allocations, not over every node's.
      this.jobCounted = true;
      for (const record of this.store.allocsOfJob(this.namespace, this.jobId)) {
        const node = record.alloc.NodeID;
        if (node && isLive(record.alloc)) this.jobUsed.set(node, (this.jobUsed.get(node) ?? 0) + 1);
      }
    }
    return this.jobUsed.get(nodeId) ?? 0;
  }

  hasRoom(record: NodeRecord): boolean {
    return record.capacity === undefined || this.usage(record.node.ID) < record.capacity;
  }

  take(nodeId: string): void {
    this.used.set(nodeId, this.usage(nodeId) + 1);
    this.jobUsed.set(nodeId, this.jobUsage(nodeId) + 1);
  }

  release(nodeId: string): void {
    this.used.set(nodeId, Math.max(0, this.usage(nodeId) - 1));
    this.jobUsed.set(nodeId, Math.max(0, this.jobUsage(nodeId) - 1));
  }
}

interface HeapEntry {
  record: NodeRecord;
  job: number;
  all: number;
  tie: number;
}

function before(a: HeapEntry, b: HeapEntry): boolean {
  if (a.job !== b.job) return a.job < b.job;
  if (a.all !== b.all) return a.all < b.all;
  return a.tie < b.tie;
}

/**
 * Picks, placement after placement, the feasible node with room that runs the fewest
 * allocations of this job (spread), then the fewest overall, ties broken at random. A binary
 * heap keeps a 10,000-allocation job on 1,000 nodes at O(n log m) instead of O(n·m).
 */
export class NodePicker {
  private readonly heap: HeapEntry[] = [];

  constructor(
    private readonly feasibility: Feasibility,
    private readonly slots: SlotTracker,
    private readonly random: () => number,
  ) {
    for (const record of feasibility.feasible) this.push(record);
  }

  /** The next node, already counted as used; undefined (with exhaustion metrics) when none fits. */
  pick(): NodeRecord | undefined {
    for (;;) {
      const top = this.pop();
      if (!top) {
        const exhausted = this.feasibility.feasible.length;
        if (exhausted > 0) {
          this.feasibility.metric.NodesExhausted = exhausted;
          this.feasibility.metric.DimensionExhausted = { slots: exhausted };
        }
        return undefined;
      }
      if (!this.slots.hasRoom(top.record)) continue;
      this.slots.take(top.record.node.ID);
      this.push(top.record);
      return top.record;
    }
  }

  private push(record: NodeRecord): void {
    const id = record.node.ID;
    const entry: HeapEntry = {
      record,
      job: this.slots.jobUsage(id),
      all: this.slots.usage(id),
      tie: this.random(),
    };
    const heap = this.heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = heap[parent];
      if (!p || !before(entry, p)) break;
      heap[i] = p;
      i = parent;
    }
    heap[i] = entry;
  }

  private pop(): HeapEntry | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (!top || !last || heap.length === 0) return top;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let smallest = last;
      let at = -1;
      const left = heap[l];
      const right = heap[r];
      if (left && before(left, smallest)) {
        smallest = left;
        at = l;
      }
      if (right && before(right, smallest)) {
        smallest = right;
        at = r;
      }
      if (at < 0) break;
      heap[i] = smallest;
      i = at;
    }
    heap[i] = last;
    return top;
  }
}
