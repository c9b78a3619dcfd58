/**
 * Task-level helpers: lifecycle roles, `run_for`, task states and events (Nomad's
 * `client/allocrunner/alloc_runner.go` `restartTasks`).
 */
import type { Task, TaskEvent, TaskGroup, TaskState } from '../../lib/nomad/types';
import { parseGoDuration } from '../duration';
import { nowNs, nowRfc3339, type SimContext, ZERO_TIME } from './context';
import type { AllocRecord } from './store';

/** Nomad keeps at most 10 events per task. */
export const MAX_TASK_EVENTS = 10;

/**
 * Lifecycle role: `prestart` runs to completion before the main tasks; `sidecar` runs
 * alongside them (prestart or poststart sidecar); `poststart` starts with the main tasks;
 * `poststop` waits for the main tasks to finish.
 */
export type TaskRole = 'prestart' | 'sidecar' | 'main' | 'poststart' | 'poststop';

export function roleOf(task: Task): TaskRole {
  const hook = task.Lifecycle?.Hook;
  if (hook === 'prestart') return task.Lifecycle?.Sidecar ? 'sidecar' : 'prestart';
  if (hook === 'poststart') return task.Lifecycle?.Sidecar ? 'sidecar' : 'poststart';
  if (hook === 'poststop') return 'poststop';
  return 'main';
}

/**
 * How long a task runs before exiting on its own, in simulated ms: `Config.run_for` (Go
 * duration, as mock_driver reads it), or `sleep N` for raw_exec/exec. Undefined: forever.
 */
export function runForMs(task: Task): number | undefined {
  const config = task.Config ?? {};
  const runFor = config['run_for'];
  if (typeof runFor === 'string') return parseGoDuration(runFor);
  if (typeof runFor === 'number') return runFor / 1_000_000;
  const args = config['args'];
  if (config['command'] === 'sleep' && Array.isArray(args) && typeof args[0] === 'string') {
    const seconds = Number(args[0]);
    return Number.isFinite(seconds) ? seconds * 1000 : parseGoDuration(args[0]);
  }
  return undefined;
}

/** The group definition of an allocation, from its own job version. */
export function groupOf(record: AllocRecord): TaskGroup | undefined {
  return record.job.TaskGroups?.find((g) => g.Name === record.alloc.TaskGroup);
}

export function tasksOf(record: AllocRecord): Task[] {
  return groupOf(record)?.Tasks ?? [];
}

export function event(
  ctx: SimContext,
  type: string,
  display: string,
  extra: Partial<TaskEvent> = {},
): TaskEvent {
  return { Type: type, Time: nowNs(ctx), DisplayMessage: display, Message: '', Details: {}, ...extra };
}

export function pushEvent(state: TaskState, ev: TaskEvent): void {
  const events = state.Events ?? [];
  events.push(ev);
  if (events.length > MAX_TASK_EVENTS) events.splice(0, events.length - MAX_TASK_EVENTS);
  state.Events = events;
}

export function newTaskState(ctx: SimContext): TaskState {
  const state: TaskState = {
    State: 'pending',
    Failed: false,
    Restarts: 0,
    LastRestart: ZERO_TIME,
    StartedAt: null,
    FinishedAt: null,
    Events: [],
  };
  pushEvent(state, event(ctx, 'Received', 'Task received by client'));
  return state;
}

export function markStarted(ctx: SimContext, state: TaskState): void {
  // The task directory is built once per task runner: a restart starts without it.
  if (!state.StartedAt)
    pushEvent(
      state,
      event(ctx, 'Task Setup', 'Building Task Directory', { Message: 'Building Task Directory' }),
    );
  // One reading of the clock for both: a scaled clock moves between two readings of it.
  const ms = Math.round(ctx.clock.now());
  pushEvent(state, event(ctx, 'Started', 'Task started by client', { Time: ms * 1_000_000 }));
  state.State = 'running';
  state.StartedAt = new Date(ms).toISOString();
  state.FinishedAt = null;
}

export function markExited(ctx: SimContext, state: TaskState): void {
  pushEvent(state, event(ctx, 'Terminated', 'Exit Code: 0', { Details: { exit_code: '0' } }));
  state.State = 'dead';
  state.FinishedAt = nowRfc3339(ctx);
}

export function markKilled(ctx: SimContext, state: TaskState): void {
  pushEvent(state, event(ctx, 'Killed', 'Task successfully killed'));
  state.State = 'dead';
  state.FinishedAt = nowRfc3339(ctx);
}
