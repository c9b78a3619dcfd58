/**
 * Whether an allocation is healthy again after a restart (`-wait-healthy`), judged from what
 * Nomad reports: its task states and its Nomad service checks. The rules are those of Nomad's
 * own health tracker for deployments (`client/allochealth/tracker.go`): every task running, a
 * completed prestart or poststart task and a waiting poststop task are fine, a failed task is the
 * end; every check `success`, a failed readiness check ignored. Two rules come from restarting
 * in place: the restart must show in the task states (the servers hear of it a moment after
 * the client did it), a task we restarted must have started again after our signal, and a check result
 * counts only when it is newer than the latest task start, because the client keeps the last
 * result across a restart (observed on a Nomad agent; the results come from the client's
 * `client/allocrunner/checks_hook.go`). Pure: the step reads Nomad and keeps the clock.
 */

import { goQuote } from '../../go/quote';
import type { Allocation, AllocCheckStatuses, AllocListStub, TaskGroup, TaskState } from '../../nomad/types';

/** A task's lifecycle role, as the tracker treats it. */
export type TaskRole = 'main' | 'prestart' | 'poststart' | 'poststop' | 'sidecar';

/** The role of each task of `group` (its own job version): what a dead or waiting task means. */
export function taskRoles(group: TaskGroup | undefined): Record<string, TaskRole> {
  const roles: Record<string, TaskRole> = {};
  for (const task of group?.Tasks ?? []) {
    const hook = task.Lifecycle?.Hook;
    roles[task.Name] =
      hook === undefined || hook === '' ? 'main' : task.Lifecycle?.Sidecar ? 'sidecar' : (hook as TaskRole);
  }
  return roles;
}

/** The allocation's group in its own job version; undefined when Nomad no longer has that version. */
export function allocationGroup(allocation: Allocation): TaskGroup | undefined {
  return allocation.Job?.TaskGroups?.find((g) => g.Name === allocation.TaskGroup);
}

/**
 * The roles of an allocation's tasks from its own job version (`GET /v1/allocation/:id`); when
 * Nomad no longer has that version, every task is held to a main task's rules.
 */
export function allocationRoles(allocation: Allocation): Record<string, TaskRole> {
  const group = allocationGroup(allocation);
  if (group !== undefined) return taskRoles(group);
  return Object.fromEntries(Object.keys(allocation.TaskStates ?? {}).map((task) => [task, 'main' as const]));
}

/** What is known of one allocation now. */
export interface HealthView {
  readonly allocation: Pick<AllocListStub, 'ClientStatus' | 'DesiredStatus' | 'TaskStates'>;
  /** Lifecycle roles by task, once read; only a dead or never-started task needs them. */
  readonly roles?: Readonly<Record<string, TaskRole>> | undefined;
  /**
   * Unix ms from which a restart is ours (in place: the batch's start less the clock-skew
   * allowance): a task restarted since must have started again after it. Unset for a replacement.
   */
  readonly restartedSinceMs?: number | undefined;
  /** The latest check results, once read (empty: the allocation has no Nomad checks). */
  readonly checks?: AllocCheckStatuses | undefined;
}

/** The verdict on one allocation at one moment. */
export type Health =
  /** It will not become healthy (failed, lost, stopped, a task failed): report it, do not wait. */
  | { readonly kind: 'failed'; readonly reason: string }
  /**
   * Not healthy now; `reason` names the task or check and its last output. `needs` says what to
   * read before judging again: the tasks' roles, or the checks (tasks are fine, checks unread).
   */
  | { readonly kind: 'unhealthy'; readonly reason: string; readonly needs?: 'roles' | 'checks' }
  /**
   * Every task as it should be and every check passing with a fresh result. `checks` is how many
   * checks counted (0: judged on the tasks alone); `latestStartNs` the newest task start, which
   * changes when a task restarts between two looks.
   */
  | { readonly kind: 'passing'; readonly checks: number; readonly latestStartNs: number };

const CLIENT_TERMINAL = new Set(['complete', 'failed', 'lost']);

/** The event a reason quotes: `Type: DisplayMessage`. */
function lastEvent(state: TaskState): string {
  const event = state.Events?.at(-1);
  if (event === undefined) return '';
  const text = event.DisplayMessage ?? '';
  return text === '' ? ` (${event.Type})` : ` (${event.Type}: ${text})`;
}

/** Unix ns of the task's latest start (`Started` events, else `StartedAt`); 0 when it never started. */
export function latestStartNs(state: TaskState): number {
  const fromEvents = Math.max(
    0,
    ...(state.Events ?? []).filter((e) => e.Type === 'Started').map((e) => e.Time),
  );
  const startedAt = state.StartedAt ? Date.parse(state.StartedAt) * 1e6 : Number.NaN;
  return Number.isFinite(startedAt) ? Math.max(fromEvents, startedAt) : fromEvents;
}

/** Unix ns of our restart signal to the task (its `Restart Signaled` event or `LastRestart`), if any since `sinceMs`. */
function restartSignalNs(state: TaskState, sinceMs: number): number | undefined {
  const sinceNs = sinceMs * 1e6;
  const signals = (state.Events ?? []).filter((e) => e.Type === 'Restart Signaled' && e.Time >= sinceNs);
  if (signals.length > 0) return Math.max(...signals.map((e) => e.Time));
  // Only 10 events are kept per task: a task that restarted often may have lost the event.
  const lastRestart = state.LastRestart ? Date.parse(state.LastRestart) * 1e6 : Number.NaN;
  return Number.isFinite(lastRestart) && lastRestart >= sinceNs ? lastRestart : undefined;
}

const byName = <T>(entries: [string, T][]) => entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

type TaskVerdict = Exclude<Health, { kind: 'passing' }> | { kind: 'ok'; latestStartNs: number };

function judgeTasks(view: HealthView): TaskVerdict {
  const { allocation, roles } = view;
  const states = byName(Object.entries(allocation.TaskStates ?? {}));
  const failedTask = states.find(([, state]) => state.Failed === true);
  if (failedTask !== undefined) {
    const [name, state] = failedTask;
    return { kind: 'failed', reason: `task ${goQuote(name)} failed${lastEvent(state)}` };
  }
  if (CLIENT_TERMINAL.has(allocation.ClientStatus))
    return { kind: 'failed', reason: `client status is ${goQuote(allocation.ClientStatus)}` };
  if (allocation.DesiredStatus !== 'run')
    return { kind: 'failed', reason: `desired status is ${goQuote(allocation.DesiredStatus)}` };
  if (states.length === 0) return { kind: 'unhealthy', reason: 'no task has started' };
  // The servers hear of a restart a moment after the client did it: until a task shows it, the
  // states (and any check result) are from before it.
  const since = view.restartedSinceMs;
  if (since !== undefined && !states.some(([, state]) => restartSignalNs(state, since) !== undefined))
    return { kind: 'unhealthy', reason: 'the restart is not in its task states yet' };
  let newest = 0;
  for (const [name, state] of states) {
    const role = roles?.[name];
    const started = latestStartNs(state);
    if (role === 'poststop') continue;
    if (state.State === 'dead') {
      if (role === 'prestart' || role === 'poststart') continue;
      if (role === undefined)
        return { kind: 'unhealthy', reason: `task ${goQuote(name)} is "dead"`, needs: 'roles' };
      return { kind: 'failed', reason: `task ${goQuote(name)} is "dead"${lastEvent(state)}` };
    }
    if (state.State !== 'running') {
      if (role === undefined && started === 0)
        return {
          kind: 'unhealthy',
          reason: `task ${goQuote(name)} is ${goQuote(state.State)}`,
          needs: 'roles',
        };
      return {
        kind: 'unhealthy',
        reason: `task ${goQuote(name)} is ${goQuote(state.State)}${lastEvent(state)}`,
      };
    }
    const signal =
      view.restartedSinceMs === undefined ? undefined : restartSignalNs(state, view.restartedSinceMs);
    if (signal !== undefined && started <= signal)
      return { kind: 'unhealthy', reason: `task ${goQuote(name)} has not started again since the restart` };
    newest = Math.max(newest, started);
  }
  return { kind: 'ok', latestStartNs: newest };
}

/**
 * Judges one allocation now. Tasks first (a failed one ends it; a task not running yet is the
 * reason); then, with the tasks fine, the checks: each must be `success` with a `Timestamp` in a
 * later second than the latest task start (compared at second resolution, Nomad's unit), except
 * a readiness check's failure, which Nomad's tracker ignores too.
 */
export function judgeHealth(view: HealthView): Health {
  const tasks = judgeTasks(view);
  if (tasks.kind !== 'ok') return tasks;
  if (view.checks === undefined) return { kind: 'unhealthy', reason: 'checks not read yet', needs: 'checks' };
  const startedSecond = Math.floor(tasks.latestStartNs / 1e9);
  const results = byName(Object.values(view.checks).map((r) => [r.Check, r] as [string, typeof r]));
  for (const [name, result] of results) {
    if (result.Status === 'failure' && result.Mode === 'readiness') continue;
    const output = result.Output ? `: ${result.Output}` : '';
    if (result.Status !== 'success')
      return { kind: 'unhealthy', reason: `check ${goQuote(name)} is ${goQuote(result.Status)}${output}` };
    if (result.Timestamp <= startedSecond)
      return { kind: 'unhealthy', reason: `check ${goQuote(name)} has not run since the task started` };
  }
  return { kind: 'passing', checks: results.length, latestStartNs: tasks.latestStartNs };
}
