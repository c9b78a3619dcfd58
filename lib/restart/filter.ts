/**
 * Which allocations a restart touches (Nomad's `command/job_restart.go` `Run`, `filterAllocs`).
 * Pure: the engine fetches the stubs and the job versions, this decides.
 */
import type { AllocListStub, Job } from '../nomad/types';
import type { SkipReason } from './events';
import { taskStartedAt } from './started-before';

/** An allocation the restart will handle, with what the batch steps need and nothing more. */
export interface PlannedAllocation {
  id: string;
  group: string;
  jobId: string;
  namespace?: string;
  jobVersion?: number;
  /**
   * `Type` of the allocation's own job version; `undefined` when that version was pruned
   * or has no type (the engine then falls back to the job's type, see README, "Differences from
   * nomad job restart").
   */
  jobType?: string;
  /** In `-task` mode, the requested tasks this allocation has, in request order; else empty. */
  tasks: string[];
  nodeId?: string;
}

/** An allocation left out, and the first rule that excluded it. */
export interface SkippedAllocation {
  id: string;
  reason: SkipReason;
}

/** Orders stubs newest first (`CreateIndex` descending), ties by ID so runs are reproducible. */
export function sortAllocations<T extends Pick<AllocListStub, 'ID' | 'CreateIndex'>>(
  stubs: readonly T[],
): T[] {
  return [...stubs].sort((a, b) => b.CreateIndex - a.CreateIndex || (a.ID < b.ID ? -1 : a.ID > b.ID ? 1 : 0));
}

/**
 * Nomad's `HasTask`: the allocation's `TaskStates` first (the most reliable source), then
 * the group's tasks in the allocation's own job version, so a task removed in a later
 * version still matches old allocations. A missing version means "no".
 */
export function allocationHasTask(stub: AllocListStub, job: Job | undefined, task: string): boolean {
  if (stub.TaskStates != null && Object.hasOwn(stub.TaskStates, task)) return true;
  const group = job?.TaskGroups?.findLast((tg) => tg.Name === stub.TaskGroup);
  return group?.Tasks?.some((t) => t.Name === task) ?? false;
}

function plan(stub: AllocListStub, job: Job | undefined, tasks: string[]): PlannedAllocation {
  const planned: PlannedAllocation = { id: stub.ID, group: stub.TaskGroup, jobId: stub.JobID, tasks };
  if (stub.Namespace !== undefined) planned.namespace = stub.Namespace;
  if (stub.JobVersion !== undefined) planned.jobVersion = stub.JobVersion;
  if (job?.Type !== undefined) planned.jobType = job.Type;
  if (stub.NodeID !== undefined) planned.nodeId = stub.NodeID;
  return planned;
}

/** Rule 1 of Nomad's `filterAllocs`: client running or desired run (pending and stopping count). */
const isRunning = (stub: Pick<AllocListStub, 'ClientStatus' | 'DesiredStatus'>): boolean =>
  stub.ClientStatus === 'running' || stub.DesiredStatus === 'run';

/**
 * Whether a restart of the whole job would restart `stub`: rules 1 and 2 of Nomad's
 * `command/job_restart.go` `filterAllocs` (running, not already replaced), the ones that do not
 * depend on the options. A fleet's plan counts a job's allocations with it.
 */
export function isRestartCandidate(
  stub: Pick<AllocListStub, 'ClientStatus' | 'DesiredStatus' | 'NextAllocation'>,
): boolean {
  return isRunning(stub) && !stub.NextAllocation;
}

/** What decides which of an allocation's tasks the restart would restart. */
export interface TaskScopeOptions {
  /** `-task`: the requested tasks the allocation has. */
  readonly tasks: readonly string[];
  readonly allTasks: boolean;
  readonly reschedule: boolean;
}

/**
 * The names of `stub`'s tasks a restart would restart (Nomad's `command/job_restart.go`
 * `handleAlloc`): the requested ones with `-task`; every task with `-all-tasks`, or with
 * `-reschedule` (the whole allocation is replaced); else the running ones.
 */
export function tasksInScope(stub: AllocListStub, scope: TaskScopeOptions): string[] {
  if (scope.tasks.length > 0) return [...scope.tasks];
  const states = Object.entries(stub.TaskStates ?? {});
  if (scope.allTasks || scope.reschedule) return states.map(([name]) => name);
  return states.filter(([, state]) => state.State === 'running').map(([name]) => name);
}

/**
 * Beyond Nomad (`-started-before`): whether every task in scope last started at or after
 * `startedBefore` (Unix ms), so the allocation is already fresh. A task that never started will
 * start after it, so it is fresh too; a task with no state yet has not started.
 */
export function startedAfter(stub: AllocListStub, scope: TaskScopeOptions, startedBefore: number): boolean {
  return !tasksInScope(stub, scope).some((task) => {
    const started = taskStartedAt(stub.TaskStates?.[task]?.StartedAt);
    return started !== undefined && started < startedBefore;
  });
}

/**
 * Why `stub` is skipped, by the first matching rule of Nomad's `command/job_restart.go`
 * `filterAllocs`, or `undefined` to keep it.
 */
function skipReason(
  stub: AllocListStub,
  job: Job | undefined,
  groups: ReadonlySet<string>,
  tasks: readonly string[],
  done: ReadonlySet<string>,
): SkipReason | undefined {
  // 1. "Running" means client running OR desired run, so pending and stopping allocations count.
  if (!isRunning(stub)) {
    return { kind: 'status', desiredStatus: stub.DesiredStatus, clientStatus: stub.ClientStatus };
  }
  // 2. Restarting a replaced allocation is a no-op that would inflate the batch size.
  if (stub.NextAllocation) return { kind: 'replaced', nextAllocationId: stub.NextAllocation };
  if (groups.size > 0 && !groups.has(stub.TaskGroup)) return { kind: 'group' };
  if (tasks.length > 0 && !tasks.some((t) => allocationHasTask(stub, job, t))) return { kind: 'task' };
  // Beyond Nomad, after Nomad's rules: what an earlier run of the same restart already did.
  if (done.has(stub.ID)) return { kind: 'done' };
  return undefined;
}

/** The options {@link filterAllocations} reads. */
export interface FilterOptions {
  readonly groups: readonly string[];
  readonly tasks: readonly string[];
  readonly done?: ReadonlySet<string>;
  /** `-all-tasks` and `-reschedule` widen the tasks `startedBefore` looks at. @default false */
  readonly allTasks?: boolean;
  readonly reschedule?: boolean;
  /** `-started-before` (Unix ms). @default - no allocation is skipped as fresh */
  readonly startedBefore?: number;
}

/**
 * Splits stubs (already in processing order) into eligible and skipped allocations,
 * both in input order. `versions` maps job version numbers to definitions; a version that
 * is missing never crashes anything (seed fix), it only limits `-task` matching to
 * `TaskStates`. `opts.done` lists allocations an earlier run of the same restart already
 * restarted (carried over between maintenance windows): they are skipped as `done`. Last, with
 * `opts.startedBefore`, an allocation whose tasks in scope all started at or after it is skipped
 * as `started-after` (see {@link startedAfter}).
 */
export function filterAllocations(
  stubs: readonly AllocListStub[],
  versions: ReadonlyMap<number, Job>,
  opts: FilterOptions,
): { eligible: PlannedAllocation[]; skipped: SkippedAllocation[] } {
  const groups = new Set(opts.groups);
  const tasks = [...new Set(opts.tasks)];
  const done = opts.done ?? new Set<string>();
  const eligible: PlannedAllocation[] = [];
  const skipped: SkippedAllocation[] = [];
  for (const stub of stubs) {
    const job = stub.JobVersion === undefined ? undefined : versions.get(stub.JobVersion);
    const reason = skipReason(stub, job, groups, tasks, done);
    if (reason !== undefined) {
      skipped.push({ id: stub.ID, reason });
      continue;
    }
    const has = tasks.filter((t) => allocationHasTask(stub, job, t));
    const { startedBefore } = opts;
    const scope = { tasks: has, allTasks: opts.allTasks ?? false, reschedule: opts.reschedule ?? false };
    if (startedBefore !== undefined && startedAfter(stub, scope, startedBefore)) {
      skipped.push({ id: stub.ID, reason: { kind: 'started-after', startedBefore } });
      continue;
    }
    eligible.push(plan(stub, job, has));
  }
  return { eligible, skipped };
}
