/**
 * Restarts (or stops) the allocations of one batch, recording each as it goes so a retried step
 * never touches one twice.
 */
import type { NomadClient } from '../../nomad/client';
import type { Allocation } from '../../nomad/types';
import type { EmitProgress } from '../../restart/events';
import type { PlannedAllocation } from '../../restart/filter';
import type { RestartOptions } from '../../restart/options';
import type { RestartPlan } from '../../restart/plan';
import type { AllocationOutcome } from '../kit/outcomes';
import { planBatch } from '../plan/plan';
import { allocationRestartedSince, restartInPlace, taskRestartedSince } from './in-place';
import { alreadyStopped, stopAllocation } from './reschedule';

/**
 * What the step has done in one batch, persisted by the caller through `record` so that
 * a re-run after a crash or a Step Functions retry knows where it stands.
 */
export interface BatchJournal {
  readonly batchIndex: number;
  /** Unix ms when the batch first started; restarts seen since then are ours. */
  readonly startedAt: number;
  /** Outcomes of the allocations finished so far, by allocation ID. */
  readonly outcomes: Readonly<Record<string, AllocationOutcome>>;
}

/** Dependencies of {@link restartBatch}. */
export interface RestartBatchDeps {
  readonly emit: EmitProgress;
  readonly now: () => number;
  readonly signal?: AbortSignal | undefined;
  /**
   * Persists the journal; called before the first mutating call and after each allocation
   * finishes, each time with a complete snapshot (the last one wins). Calls never overlap.
   * @default - nothing is persisted, so a re-run cannot tell what was done
   */
  readonly record?: (journal: BatchJournal) => Promise<void> | void;
  /** The journal a previous run of this batch recorded, if any. */
  readonly journal?: BatchJournal | undefined;
}

/** Serialises journal writes so the persisted snapshot is always the latest. */
function journalWriter(
  record: RestartBatchDeps['record'],
  base: Omit<BatchJournal, 'outcomes'>,
  previous: BatchJournal['outcomes'],
) {
  const outcomes: Record<string, AllocationOutcome> = { ...previous };
  let chain: Promise<void> = Promise.resolve();
  const save = (): Promise<void> => {
    const snapshot: BatchJournal = { ...base, outcomes: { ...outcomes } };
    chain = chain.then(() => record?.(snapshot));
    return chain;
  };
  return { outcomes, save };
}

/**
 * Restarts (or, with `-reschedule`, stops) every allocation of one batch concurrently and
 * returns one outcome per planned allocation, in plan order. Emits the batch header (when
 * the batch size is above 1) and the detail lines of Nomad's `handleAlloc`.
 *
 * Idempotency rule: re-running a batch never restarts an allocation twice and never stops
 * a replacement.
 * - Allocations with an outcome in the previous journal are not touched again.
 * - An allocation in flight when the previous run died is looked up first
 *   (`GET /v1/allocation/:id`): in place, a `Restart Signaled` event or `LastRestart` at or
 *   after the journal's `startedAt` means the restart happened (in `-task` mode, per
 *   task); with `-reschedule`, `DesiredTransition.Migrate` or desired stop with a
 *   `NextAllocation` means the stop happened, so the allocation is awaited, not stopped.
 * - The plan only ever holds original allocations (replaced ones are filtered out), and
 *   only those are stopped; replacements are only ever read.
 * The check costs one GET per in-flight allocation, and only on a re-run.
 */
export async function restartBatch(
  client: NomadClient,
  plan: RestartPlan,
  batchIndex: number,
  options: RestartOptions,
  deps: RestartBatchDeps,
): Promise<AllocationOutcome[]> {
  const allocations = planBatch(plan, batchIndex);
  const previous = deps.journal?.batchIndex === batchIndex ? deps.journal : undefined;
  const startedAt = previous?.startedAt ?? deps.now();
  const journal = journalWriter(deps.record, { batchIndex, startedAt }, previous?.outcomes ?? {});
  await journal.save();

  if (previous === undefined && plan.batchSize > 1) {
    deps.emit({
      type: 'batch-started',
      time: deps.now(),
      batchNumber: batchIndex + 1,
      size: allocations.length,
    });
  }

  // Every allocation runs to its end before a failure is thrown, so the journal holds each one
  // that was done and the retried step (Step Functions' Retry) redoes only the rest.
  const settled = await Promise.allSettled(
    allocations.map(async (allocation) => {
      if (journal.outcomes[allocation.id] !== undefined) {
        return;
      }
      const current = previous === undefined ? undefined : await lookUp(client, allocation, deps.signal);
      const attempted = options.reschedule
        ? await rescheduleOnce(client, allocation, options, deps, current)
        : await restartInPlace(client, allocation, options, deps, restartedCheck(current, startedAt));
      const outcome =
        attempted.status === 'failed' && options.reschedule
          ? await stoppedAfterAll(client, allocation, attempted, deps.signal)
          : attempted;
      journal.outcomes[allocation.id] = outcome;
      await journal.save();
    }),
  );
  const failure = settled.find((result) => result.status === 'rejected');
  if (failure !== undefined) throw failure.reason;
  return allocations.map((allocation) => journal.outcomes[allocation.id] as AllocationOutcome);
}

/**
 * A failed stop is checked once against Nomad's state, because its answer may have been lost
 * after Nomad acted (a proxy failing on the way back, a reset after the request was read). An
 * allocation found stopped by us is awaited like any other, so its replacement is watched and
 * no error is reported for a stop that happened. (A failed in-place restart stands as reported:
 * Nomad's own test T14 expects the error line for a restart answered 502 after it was applied.)
 */
async function stoppedAfterAll(
  client: NomadClient,
  allocation: PlannedAllocation,
  failed: AllocationOutcome,
  signal: AbortSignal | undefined,
): Promise<AllocationOutcome> {
  const current = await lookUp(client, allocation, signal);
  return current !== undefined && alreadyStopped(current)
    ? {
        allocationId: allocation.id,
        group: allocation.group,
        status: 'stopped',
        stopIndex: current.CreateIndex,
      }
    : failed;
}

/** The allocation's current state on a re-run, or `undefined` if it cannot be read (then it is handled afresh). */
async function lookUp(
  client: NomadClient,
  allocation: PlannedAllocation,
  signal: AbortSignal | undefined,
): Promise<Allocation | undefined> {
  try {
    const result = await client.allocations().info(allocation.id, {
      ...(allocation.namespace === undefined ? {} : { namespace: allocation.namespace }),
      ...(signal === undefined ? {} : { signal }),
    });
    return result.value;
  } catch {
    // Unreadable now means the restart call itself will report the problem, with Nomad's text.
    return undefined;
  }
}

function restartedCheck(
  current: Allocation | undefined,
  startedAt: number,
): ((task: string | undefined) => boolean) | undefined {
  if (current === undefined) {
    return undefined;
  }
  return (task) =>
    task === undefined
      ? allocationRestartedSince(current, startedAt)
      : taskRestartedSince(current, task, startedAt);
}

async function rescheduleOnce(
  client: NomadClient,
  allocation: PlannedAllocation,
  options: RestartOptions,
  deps: RestartBatchDeps,
  current: Allocation | undefined,
): Promise<AllocationOutcome> {
  if (current !== undefined && alreadyStopped(current)) {
    // The stop index was lost with the crash; the allocation's CreateIndex is a safe lower
    // bound: any blocked evaluation for its group since then means its replacement is stuck.
    return {
      allocationId: allocation.id,
      group: allocation.group,
      status: 'stopped',
      stopIndex: current.CreateIndex,
    };
  }
  return stopAllocation(client, allocation, options, deps);
}
