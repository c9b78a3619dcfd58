/**
 * A task that exits with an error as it starts (crash on start, switched on through the control
 * API), and what its client does next under the group's restart policy, as Nomad's restart tracker
 * (`client/allocrunner/taskrunner/restarts`) decides: restart after `delay` while attempts remain
 * in the interval, then fail the task and the allocation (`mode = "fail"`) or wait for the next
 * interval (`mode = "delay"`). User-requested restarts do not count against the attempts.
 */
import type { RestartPolicy } from '../../lib/nomad/types';
import { formatGoDuration } from '../duration';
import { purgeChecks } from './checks';
import { clientWrite, followTaskStates } from './client-write';
import { nowRfc3339, type SimContext } from './context';
import { isClientTerminal } from './status';
import type { AllocRecord } from './store';
import { event, groupOf, markKilled, pushEvent } from './tasks';

/** Nomad's defaults (`api/tasks.go`), durations in ms. */
const SERVICE_POLICY = { attempts: 2, intervalMs: 30 * 60_000, delayMs: 15_000, mode: 'fail' };
const BATCH_POLICY = { attempts: 3, intervalMs: 24 * 3_600_000, delayMs: 15_000, mode: 'fail' };

/** Nomad's `ReasonDelay`. */
const REASON_DELAY = 'Exceeded allowed attempts, applying a delay';

function policyOf(record: AllocRecord) {
  const type = record.job.Type ?? 'service';
  const base = type === 'batch' || type === 'sysbatch' ? BATCH_POLICY : SERVICE_POLICY;
  const set: RestartPolicy = groupOf(record)?.RestartPolicy ?? {};
  return {
    attempts: set.Attempts ?? base.attempts,
    intervalMs: set.Interval !== undefined ? set.Interval / 1e6 : base.intervalMs,
    delayMs: set.Delay !== undefined ? set.Delay / 1e6 : base.delayMs,
    mode: set.Mode ?? base.mode,
  };
}

type Next = { restartInMs: number; reason?: string } | { fail: string };

/** The restart tracker's `GetState` for a failed exit: restart when, or fail why. */
function decide(ctx: SimContext, record: AllocRecord, task: string): Next {
  const policy = policyOf(record);
  const now = ctx.clock.now();
  record.runtime.restartTrackers ??= new Map();
  const tracker = record.runtime.restartTrackers.get(task) ?? { count: 0, intervalStart: now };
  if (now > tracker.intervalStart + policy.intervalMs) {
    tracker.count = 0;
    tracker.intervalStart = now;
  }
  tracker.count += 1;
  record.runtime.restartTrackers.set(task, tracker);
  if (policy.attempts === 0) return { fail: 'Policy allows no restarts' };
  if (tracker.count > policy.attempts) {
    if (policy.mode === 'fail') {
      return {
        fail: `Exceeded allowed attempts ${policy.attempts} in interval ${formatGoDuration(policy.intervalMs)} and mode is "fail"`,
      };
    }
    return { restartInMs: tracker.intervalStart + policy.intervalMs - now, reason: REASON_DELAY };
  }
  // Nomad adds up to a quarter of the delay as jitter.
  return { restartInMs: policy.delayMs + Math.floor(ctx.random() * policy.delayMs * 0.25) };
}

/**
 * `task` exited with `exitCode` right after it started. Restarts it through `startAgain` after
 * the policy's delay, or fails it: the task is dead and failed, its siblings are killed, the
 * allocation is `failed` and its checks are purged.
 */
export function crashTask(
  ctx: SimContext,
  record: AllocRecord,
  task: string,
  exitCode: number,
  startAgain: () => void,
): void {
  if (isClientTerminal(record.alloc)) return;
  let next: Next | undefined;
  const written = clientWrite(ctx, record, () => {
    const states = record.alloc.TaskStates ?? {};
    const state = states[task];
    if (state?.State !== 'running') return;
    pushEvent(
      state,
      event(ctx, 'Terminated', `Exit Code: ${exitCode}`, { Details: { exit_code: String(exitCode) } }),
    );
    next = decide(ctx, record, task);
    if ('fail' in next) {
      pushEvent(state, event(ctx, 'Not Restarting', next.fail, { RestartReason: next.fail }));
      state.State = 'dead';
      state.Failed = true;
      state.FinishedAt = nowRfc3339(ctx);
      for (const [name, sibling] of Object.entries(states)) {
        if (name === task || sibling.State !== 'running') continue;
        pushEvent(sibling, event(ctx, 'Sibling Task Failed', `Task's sibling "${task}" failed`));
        markKilled(ctx, sibling);
      }
      record.alloc.ClientStatus = 'failed';
      record.alloc.ClientDescription = 'Failed tasks';
      return;
    }
    const delay = `Task restarting in ${formatGoDuration(next.restartInMs)}`;
    pushEvent(
      state,
      event(ctx, 'Restarting', next.reason === undefined ? delay : `${next.reason} - ${delay}`, {
        ...(next.reason === undefined ? {} : { RestartReason: next.reason }),
        Details: { start_delay: String(Math.round(next.restartInMs * 1e6)) },
      }),
    );
    state.State = 'pending';
    state.Restarts = (state.Restarts ?? 0) + 1;
    state.LastRestart = nowRfc3339(ctx);
    followTaskStates(record);
  });
  if (!written || next === undefined) return;
  if ('fail' in next) {
    for (const cancel of record.runtime.cancels) cancel();
    record.runtime.cancels.clear();
    for (const cancel of record.runtime.taskTimers.values()) cancel();
    record.runtime.taskTimers.clear();
    purgeChecks(record);
    ctx.hooks.capacityChanged();
    return;
  }
  const cancel = ctx.timers.after(next.restartInMs, () => {
    record.runtime.cancels.delete(cancel);
    startAgain();
  });
  record.runtime.cancels.add(cancel);
}
