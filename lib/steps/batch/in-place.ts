/**
 * An in-place restart of one allocation (`/v1/client/allocation/:id/restart`), and how a re-run
 * recognises one already done.
 */

import type { NomadClient } from '../../nomad/client';
import { isUnappliedWriteError } from '../../nomad/errors';
import type { Allocation } from '../../nomad/types';
import { TaskRestartError } from '../../restart/allocation-errors';
import type { EmitProgress, RestartMode } from '../../restart/events';
import type { PlannedAllocation } from '../../restart/filter';
import type { RestartOptions } from '../../restart/options';
import { type AllocationOutcome, allocationError, failedOutcome } from '../kit/outcomes';

/**
 * Clock skew tolerated between this process and the Nomad client that stamps task events.
 * A restart seen up to this long before the batch started still counts as ours: skipping a
 * restart someone did seconds earlier is harmless, restarting an allocation twice is not.
 */
export const CLOCK_SKEW_ALLOWANCE_MS = 5_000;

/**
 * The event type Nomad appends to a task when a restart is requested
 * (`client/client.go` `Client.RestartAllocation`).
 */
const RESTART_SIGNALED = 'Restart Signaled';

/** Dependencies of one in-place restart. */
export interface InPlaceDeps {
  readonly emit: EmitProgress;
  readonly now: () => number;
  readonly signal?: AbortSignal | undefined;
}

/** Whether `task` of `allocation` shows a restart at or after `sinceMs` (events or `LastRestart`). */
export function taskRestartedSince(allocation: Allocation, task: string, sinceMs: number): boolean {
  const state = allocation.TaskStates?.[task];
  if (state === undefined || state === null) {
    return false;
  }
  const threshold = sinceMs - CLOCK_SKEW_ALLOWANCE_MS;
  const lastRestart = state.LastRestart ? Date.parse(state.LastRestart) : Number.NaN;
  if (Number.isFinite(lastRestart) && lastRestart >= threshold) {
    return true;
  }
  return (state.Events ?? []).some(
    (event) => event.Type === RESTART_SIGNALED && event.Time / 1e6 >= threshold,
  );
}

/** Whether any task of `allocation` was restarted at or after `sinceMs`. */
export function allocationRestartedSince(allocation: Allocation, sinceMs: number): boolean {
  return Object.keys(allocation.TaskStates ?? {}).some((task) =>
    taskRestartedSince(allocation, task, sinceMs),
  );
}

function modeOf(options: RestartOptions): RestartMode {
  return options.allTasks ? { kind: 'all-tasks' } : { kind: 'running-tasks' };
}

/**
 * Restarts one allocation in place (Nomad's `command/job_restart.go` `restartAlloc`): all tasks,
 * running tasks, or each requested task concurrently. The restart call blocks until the old
 * processes are killed; the allocation is then done.
 *
 * `alreadyRestarted` is the idempotency check of a re-run (see `restart-batch.ts`): a
 * whole-allocation restart already seen is not repeated, and in `-task` mode only the
 * tasks not yet seen restarting are restarted.
 */
export async function restartInPlace(
  client: NomadClient,
  allocation: PlannedAllocation,
  options: RestartOptions,
  deps: InPlaceDeps,
  alreadyRestarted?: (task: string | undefined) => boolean,
): Promise<AllocationOutcome> {
  const write = {
    ...(allocation.namespace === undefined ? {} : { namespace: allocation.namespace }),
    ...(deps.signal === undefined ? {} : { signal: deps.signal }),
  };
  const wrap = { verbose: options.verbose };
  const done: AllocationOutcome = {
    allocationId: allocation.id,
    group: allocation.group,
    status: 'restarted',
  };

  if (options.tasks.length === 0) {
    if (alreadyRestarted?.(undefined)) {
      return done;
    }
    deps.emit({
      type: 'allocation-restarting',
      time: deps.now(),
      allocationId: allocation.id,
      group: allocation.group,
      mode: modeOf(options),
    });
    try {
      await client.allocations().restart(allocation.id, { allTasks: options.allTasks }, write);
      return done;
    } catch (err) {
      // Not applied (no leader, never sent): the step is retried by Step Functions instead.
      if (isUnappliedWriteError(err)) throw err;
      return failedOutcome(allocation, err, wrap);
    }
  }

  const tasks = allocation.tasks.filter((task) => !alreadyRestarted?.(task));
  const results = await Promise.all(
    tasks.map(async (task) => {
      deps.emit({
        type: 'allocation-restarting',
        time: deps.now(),
        allocationId: allocation.id,
        group: allocation.group,
        mode: { kind: 'task', task },
      });
      try {
        await client.allocations().restart(allocation.id, { taskName: task }, write);
        return undefined;
      } catch (err) {
        if (isUnappliedWriteError(err)) throw err;
        return allocationError(allocation.id, new TaskRestartError(task, err), wrap);
      }
    }),
  );
  const errors = results.filter((error) => error !== undefined);
  return errors.length === 0
    ? done
    : { allocationId: allocation.id, group: allocation.group, status: 'failed', errors };
}
