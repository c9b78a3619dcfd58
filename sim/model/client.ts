/**
 * The client side: what a Nomad client does with the allocations placed on its node. Starts
 * tasks in lifecycle order, ends `run_for` tasks, kills stopped allocations (with shutdown
 * delays), and performs in-place restarts (Nomad's `client/alloc_endpoint.go`
 * `Allocations.Restart`). Updates from a node that is not `ready` are dropped, as the server cannot
 * hear from it.
 */
import type { TaskState } from '../../lib/nomad/types';
import { formatGoDuration } from '../duration';
import { SimHttpError } from '../errors';
import { noteRestart, purgeChecks, startChecks } from './checks';
import { clientWrite, connected, followTaskStates } from './client-write';
import { nowRfc3339, type SimContext } from './context';
import { isClientTerminal, isLive, isTerminal } from './status';
import type { AllocRecord } from './store';
import { crashTask } from './task-crash';
import {
  event,
  groupOf,
  markExited,
  markKilled,
  markStarted,
  newTaskState,
  pushEvent,
  roleOf,
  runForMs,
  tasksOf,
} from './tasks';

export { touchAlloc } from './client-write';

function states(record: AllocRecord): Record<string, TaskState> {
  record.alloc.TaskStates = record.alloc.TaskStates ?? {};
  return record.alloc.TaskStates;
}

/** Fresh task states for a newly placed allocation (all `pending`, one `Received` event). */
export function initialTaskStates(ctx: SimContext, record: AllocRecord): Record<string, TaskState> {
  const out: Record<string, TaskState> = {};
  for (const task of tasksOf(record)) out[task.Name] = newTaskState(ctx);
  return out;
}

function armRunFor(ctx: SimContext, record: AllocRecord, taskName: string, ms: number | undefined): void {
  record.runtime.taskTimers.get(taskName)?.();
  record.runtime.taskTimers.delete(taskName);
  // A task set to crash exits as it starts instead of running its course.
  const crash = ctx.behaviours.crashOf(record, taskName)?.value;
  if (crash !== undefined) {
    const exit = () => {
      record.runtime.taskTimers.delete(taskName);
      crashTask(ctx, record, taskName, crash.exitCode ?? 1, () => startTaskAgain(ctx, record, taskName));
    };
    const afterMs = crash.afterMs ?? 0;
    record.runtime.taskTimers.set(taskName, afterMs > 0 ? ctx.timers.after(afterMs, exit) : atOnce(exit));
    return;
  }
  if (ms === undefined) return;
  const cancel = ctx.timers.after(ms, () => {
    record.runtime.taskTimers.delete(taskName);
    taskExited(ctx, record, taskName);
  });
  record.runtime.taskTimers.set(taskName, cancel);
}

/**
 * Runs `fn` as soon as the current write is done, before any request or timer is served; returns
 * a cancel function. A crash 0 ms after a start goes this way, not through a 0 ms timer: on a
 * stalled event loop that timer fires late, with simulated time gone on (100 times the stall in
 * the tests), so readers saw a task that never runs running, and its checks passing.
 */
function atOnce(fn: () => void): () => void {
  let cancelled = false;
  queueMicrotask(() => {
    if (!cancelled) fn();
  });
  return () => {
    cancelled = true;
  };
}

/** Starts a `pending` task of a live allocation again (after a restart's delay). */
function startTaskAgain(ctx: SimContext, record: AllocRecord, taskName: string): void {
  const task = tasksOf(record).find((t) => t.Name === taskName);
  if (task === undefined || !isLive(record.alloc)) return;
  let started = false;
  clientWrite(ctx, record, () => {
    const state = states(record)[taskName];
    if (state?.State !== 'pending') return;
    markStarted(ctx, state);
    followTaskStates(record);
    started = true;
  });
  if (started) armRunFor(ctx, record, taskName, runForMs(task));
}

function cancelTaskTimers(record: AllocRecord): void {
  for (const cancel of record.runtime.taskTimers.values()) cancel();
  record.runtime.taskTimers.clear();
}

/**
 * Starts a placed allocation after the configured pending delay; with `instant` (scenario
 * seeding) it is running at once and prestart tasks with a `run_for` are already dead.
 */
export function startAllocation(ctx: SimContext, record: AllocRecord, instant = false): void {
  if (instant) {
    record.runtime.seeded = true;
    beginTasks(ctx, record, true);
    return;
  }
  const cancel = ctx.timers.after(ctx.timing.allocStartMs, () => {
    record.runtime.cancels.delete(cancel);
    beginTasks(ctx, record, false);
  });
  record.runtime.cancels.add(cancel);
}

/**
 * The client starts a pending allocation now instead of after `allocStartMs` (control API).
 * @returns false, changing nothing, unless the allocation is live, pending and on a ready node.
 */
export function startPendingNow(ctx: SimContext, record: AllocRecord): boolean {
  if (!isLive(record.alloc) || record.alloc.ClientStatus !== 'pending' || !connected(ctx, record))
    return false;
  for (const cancel of record.runtime.cancels) cancel();
  record.runtime.cancels.clear();
  beginTasks(ctx, record, false);
  return true;
}

function beginTasks(ctx: SimContext, record: AllocRecord, instant: boolean): void {
  if (!isLive(record.alloc) || record.alloc.ClientStatus !== 'pending') return;
  clientWrite(ctx, record, () => {
    startChecks(ctx, record, instant);
    const taskStates = states(record);
    for (const task of tasksOf(record)) {
      const role = roleOf(task);
      if (role !== 'prestart' && !(role === 'sidecar' && task.Lifecycle?.Hook === 'prestart')) continue;
      const state = taskStates[task.Name];
      if (!state) continue;
      markStarted(ctx, state);
      const ms = runForMs(task);
      if (role === 'prestart' && instant && ms !== undefined) markExited(ctx, state);
      else if (role === 'prestart') armRunFor(ctx, record, task.Name, ms);
    }
    maybeStartMain(ctx, record);
  });
}

/** Starts main and poststart tasks once every non-sidecar prestart task has finished. */
function maybeStartMain(ctx: SimContext, record: AllocRecord): void {
  const taskStates = states(record);
  const tasks = tasksOf(record);
  const prestartDone = tasks
    .filter((t) => roleOf(t) === 'prestart')
    .every((t) => taskStates[t.Name]?.State === 'dead');
  if (!prestartDone) return;
  for (const task of tasks) {
    const role = roleOf(task);
    const state = taskStates[task.Name];
    if (state?.State !== 'pending') continue;
    if (
      role === 'main' ||
      role === 'poststart' ||
      (role === 'sidecar' && task.Lifecycle?.Hook === 'poststart')
    ) {
      markStarted(ctx, state);
      armRunFor(ctx, record, task.Name, runForMs(task));
    }
  }
  if (!record.runtime.mainStarted) {
    record.runtime.mainStarted = true;
    record.runtime.runningSince = ctx.clock.now();
    record.alloc.ClientStatus = 'running';
    record.alloc.ClientDescription = 'Tasks are running';
    ctx.hooks.allocRunning(record);
  }
}

function taskExited(ctx: SimContext, record: AllocRecord, taskName: string): void {
  if (isClientTerminal(record.alloc)) return;
  let finished = false;
  clientWrite(ctx, record, () => {
    const taskStates = states(record);
    const state = taskStates[taskName];
    if (state?.State !== 'running') return;
    markExited(ctx, state);
    const tasks = tasksOf(record);
    if (tasks.find((t) => t.Name === taskName && roleOf(t) === 'prestart')) {
      maybeStartMain(ctx, record);
      return;
    }
    const mainDone = tasks
      .filter((t) => roleOf(t) === 'main')
      .every((t) => taskStates[t.Name]?.State === 'dead');
    if (!mainDone) return;
    // The main tasks are done: sidecars are stopped, poststop tasks run, the allocation completes.
    for (const task of tasks) {
      const s = taskStates[task.Name];
      if (!s) continue;
      if (s.State === 'running') markKilled(ctx, s);
      if (roleOf(task) === 'poststop' && s.State === 'pending') {
        markStarted(ctx, s);
        markExited(ctx, s);
      }
    }
    cancelTaskTimers(record);
    record.alloc.ClientStatus = 'complete';
    record.alloc.ClientDescription = 'All tasks have completed';
    finished = true;
  });
  if (finished) ctx.hooks.capacityChanged();
}

/**
 * Kills a stopped allocation as a Nomad client does: the group `shutdown_delay` is waited
 * first, with no event (the group service hook's pre-kill); then each running task gets
 * `Killing`, then `Waiting for shutdown delay` (or `Skipping shutdown delay` with
 * `NoShutdownDelay`, which also skips the group delay) when it has a task `shutdown_delay`,
 * then `Terminated` and `Killed` once that delay and `taskKillMs` have passed; the allocation
 * then becomes `complete`.
 */
export function killAllocation(ctx: SimContext, record: AllocRecord): void {
  for (const cancel of record.runtime.cancels) cancel();
  record.runtime.cancels.clear();
  cancelTaskTimers(record);
  // The checks hook's pre-kill purges the results before any task is signalled, and the service
  // hooks deregister from Consul before any shutdown delay.
  purgeChecks(record);
  ctx.hooks.tasksChanged(record);
  if (isClientTerminal(record.alloc) || record.alloc.ClientStatus === 'unknown') return;
  const skip = record.alloc.DesiredTransition?.NoShutdownDelay === true;
  const groupDelayMs = skip ? 0 : (groupOf(record)?.ShutdownDelay ?? 0) / 1_000_000;
  const killTasks = () => {
    if (isClientTerminal(record.alloc)) return;
    let delayMs = 0;
    const written = clientWrite(ctx, record, () => {
      const taskStates = states(record);
      for (const task of tasksOf(record)) {
        const state = taskStates[task.Name];
        if (state?.State !== 'running') continue;
        pushEvent(state, event(ctx, 'Killing', 'Sent interrupt. Waiting 5s before force killing'));
        const taskDelayMs = (task.ShutdownDelay ?? 0) / 1_000_000;
        if (taskDelayMs === 0) continue;
        const text = `shutdown_delay of ${formatGoDuration(taskDelayMs)} before killing the task.`;
        if (skip) pushEvent(state, event(ctx, 'Skipping shutdown delay', `Skipping ${text}`));
        else {
          pushEvent(state, event(ctx, 'Waiting for shutdown delay', `Waiting for ${text}`));
          delayMs = Math.max(delayMs, taskDelayMs);
        }
      }
    });
    if (!written) return;
    ctx.timers.after(delayMs + ctx.timing.taskKillMs, () => {
      const done = clientWrite(ctx, record, () => {
        const taskStates = states(record);
        for (const state of Object.values(taskStates)) {
          if (state.State === 'dead') continue;
          if (state.State === 'running') pushEvent(state, killedByInterrupt(ctx));
          markKilled(ctx, state);
        }
        record.alloc.ClientStatus = 'complete';
        record.alloc.ClientDescription = 'All tasks have completed';
      });
      if (done) ctx.hooks.capacityChanged();
    });
  };
  if (groupDelayMs > 0) ctx.timers.after(groupDelayMs, killTasks);
  else killTasks();
}

/** The `Terminated` event of a task stopped by the client's interrupt (as raw_exec `sleep` reports it). */
function killedByInterrupt(ctx: SimContext) {
  return event(ctx, 'Terminated', 'Exit Code: 130, Signal: 2', {
    Details: { exit_code: '130', signal: '2' },
  });
}

/** Freezes a running allocation whose node stopped talking to the servers. */
export function freezeAllocation(record: AllocRecord): void {
  for (const cancel of record.runtime.cancels) cancel();
  record.runtime.cancels.clear();
  cancelTaskTimers(record);
}

const REASONS = {
  running: 'User requested running tasks to restart',
  all: 'User requested all tasks to restart',
  task: 'User requested task to restart',
} as const;

/**
 * `PUT /v1/client/allocation/:id/restart` on the client: validates the mode, signals the
 * tasks, waits the group `shutdown_delay` in whole-allocation modes (unless
 * `NoShutdownDelay`), kills and starts them again. Resolves once the kill is done.
 * @throws SimHttpError with Nomad's status and text (`command/agent/http.go` `HTTPServer.wrap`).
 */
export async function restartAllocation(
  ctx: SimContext,
  record: AllocRecord,
  taskName: string,
  allTasks: boolean,
): Promise<void> {
  if (taskName !== '' && allTasks)
    throw new SimHttpError(500, 'task name cannot be set when restarting all tasks');
  const taskStates = states(record);
  const tasks = tasksOf(record);
  let selected: string[];
  let reason: string;
  if (taskName !== '') {
    const state = taskStates[taskName];
    if (!state && !tasks.some((t) => t.Name === taskName)) {
      throw new SimHttpError(500, `Could not find task runner for task: ${taskName}`);
    }
    if (state?.State !== 'running') throw new SimHttpError(500, 'Task not running');
    selected = [taskName];
    reason = REASONS.task;
  } else {
    if (isTerminal(record.alloc)) throw new SimHttpError(500, 'restart of an alloc that should not run');
    const wanted = (name: string): boolean => {
      const s = taskStates[name]?.State;
      return allTasks ? s === 'running' || s === 'dead' : s === 'running';
    };
    selected = tasks.map((t) => t.Name).filter(wanted);
    reason = allTasks ? REASONS.all : REASONS.running;
  }
  if (selected.length === 0) return;

  clientWrite(ctx, record, () => {
    for (const name of selected) {
      const state = taskStates[name];
      if (state) pushEvent(state, event(ctx, 'Restart Signaled', reason, { RestartReason: reason }));
    }
    noteRestart(ctx, record);
    // The group service hook's PreTaskRestart registers the group's services again, before any kill
    // (`client/allocrunner/alloc_runner.go` `restartTasks`); a one-task restart leaves them be.
    if (taskName === '') record.runtime.groupServiceRuns = (record.runtime.groupServiceRuns ?? 0) + 1;
  });
  // The group service hook waits the group-level delay; the task-level delay never applies.
  const wholeAlloc = taskName === '';
  const skipDelay = record.alloc.DesiredTransition?.NoShutdownDelay === true;
  const groupDelayMs = wholeAlloc && !skipDelay ? (groupOf(record)?.ShutdownDelay ?? 0) / 1_000_000 : 0;
  await ctx.timers.sleep(groupDelayMs + ctx.timing.taskKillMs);
  if (!isLive(record.alloc) && taskName === '') return;

  const rerunPrestart =
    allTasks && selected.some((n) => tasks.find((t) => t.Name === n && roleOf(t) === 'prestart'));
  // With all tasks, the lifecycle coordinator is reset: prestart runs before the rest.
  const startNow = selected.filter((name) => {
    const task = tasks.find((t) => t.Name === name);
    const role = task === undefined ? 'main' : roleOf(task);
    return (
      !rerunPrestart || role === 'prestart' || (role === 'sidecar' && task?.Lifecycle?.Hook === 'prestart')
    );
  });
  const start = () => {
    for (const name of startNow) {
      const state = taskStates[name];
      const task = tasks.find((t) => t.Name === name);
      if (state?.State !== 'pending' || !task) continue;
      markStarted(ctx, state);
      armRunFor(ctx, record, name, runForMs(task));
    }
    if (rerunPrestart) {
      record.runtime.mainStarted = record.runtime.mainStarted ?? false;
      maybeStartMain(ctx, record);
    }
    followTaskStates(record);
  };
  const comeBackMs = ctx.timing.taskRestartMs;
  clientWrite(ctx, record, () => {
    for (const name of selected) {
      const state = taskStates[name];
      if (!state || !tasks.some((t) => t.Name === name)) continue;
      pushEvent(state, killedByInterrupt(ctx));
      pushEvent(state, event(ctx, 'Restarting', 'Task restarting in 0s', { Details: { start_delay: '0' } }));
      state.State = 'pending';
      state.Restarts = (state.Restarts ?? 0) + 1;
      state.LastRestart = nowRfc3339(ctx);
    }
    if (comeBackMs <= 0) start();
    else followTaskStates(record);
  });
  if (comeBackMs <= 0) return;
  // The tasks take `taskRestartMs` to come back: the restart call has returned by then.
  const cancel = ctx.timers.after(comeBackMs, () => {
    record.runtime.cancels.delete(cancel);
    if (isLive(record.alloc)) clientWrite(ctx, record, start);
  });
  record.runtime.cancels.add(cancel);
}
