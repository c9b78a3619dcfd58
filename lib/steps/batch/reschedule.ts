/**
 * The `-reschedule` writes: stopping an allocation, and for system jobs the evaluation that places
 * its replacement.
 */

import type { NomadClient } from '../../nomad/client';
import { isUnappliedWriteError } from '../../nomad/errors';
import type { Allocation } from '../../nomad/types';
import { AllocationStepError } from '../../restart/allocation-errors';
import type { EmitProgress } from '../../restart/events';
import type { PlannedAllocation } from '../../restart/filter';
import type { RestartOptions } from '../../restart/options';
import type { RestartPlan } from '../../restart/plan';
import { type AllocationOutcome, failedOutcome } from '../kit/outcomes';
import { planBatch } from '../plan/plan';

/** Dependencies of the reschedule steps. */
export interface RescheduleDeps {
  readonly emit: EmitProgress;
  readonly now: () => number;
  readonly signal?: AbortSignal | undefined;
}

/**
 * Whether `allocation` was already stopped by a `-reschedule` stop: the stop merges
 * `DesiredTransition.Migrate` at once, and the scheduler later sets desired `stop` and links
 * `NextAllocation`. Such an allocation is awaited, never stopped again, and its replacement
 * (a different allocation, not in the plan) is never touched.
 */
export function alreadyStopped(allocation: Allocation): boolean {
  return (
    allocation.DesiredTransition?.Migrate === true ||
    (allocation.DesiredStatus !== 'run' && Boolean(allocation.NextAllocation))
  );
}

/**
 * Stops one allocation so the scheduler places a replacement (Nomad's `command/job_restart.go`
 * `stopAlloc`, steps 1–2), with `no_shutdown_delay` when asked. The stop's index bounds the
 * placement-failure watch. Does not evaluate: {@link triggerEvaluations} is a separate step.
 */
export async function stopAllocation(
  client: NomadClient,
  allocation: PlannedAllocation,
  options: RestartOptions,
  deps: RescheduleDeps,
): Promise<AllocationOutcome> {
  deps.emit({
    type: 'allocation-restarting',
    time: deps.now(),
    allocationId: allocation.id,
    group: allocation.group,
    mode: { kind: 'reschedule' },
  });
  try {
    const result = await client.allocations().stop(
      allocation.id,
      { noShutdownDelay: options.noShutdownDelay },
      {
        ...(allocation.namespace === undefined ? {} : { namespace: allocation.namespace }),
        ...(deps.signal === undefined ? {} : { signal: deps.signal }),
      },
    );
    // The header is what Nomad's CLI uses; the body carries the same index if a proxy dropped it.
    const stopIndex = result.index > 0 ? result.index : result.value.Index;
    return { allocationId: allocation.id, group: allocation.group, status: 'stopped', stopIndex };
  } catch (err) {
    // Not applied (no leader, never sent): the step is retried by Step Functions instead.
    if (isUnappliedWriteError(err)) throw err;
    return failedOutcome(
      allocation,
      new AllocationStepError({ step: 'stop', cause: err, verbose: options.verbose }),
      { verbose: options.verbose },
    );
  }
}

/**
 * The job type that decides whether a stopped allocation needs an evaluation: its own job
 * version's type, or, when that version was pruned, the job's type from the job info call.
 * Nomad's CLI skips the evaluation for a pruned version and then waits forever; we do not (README,
 * "Differences from nomad job restart").
 */
export function effectiveJobType(plan: RestartPlan, allocation: PlannedAllocation): string | undefined {
  return allocation.jobType ?? plan.job.type;
}

/**
 * The system-job step of `-reschedule` (Nomad's `command/job_restart.go` `stopAlloc`): for every
 * allocation of the batch that was stopped and belongs to a system job, `PUT /v1/job/:id/evaluate`
 * with `ForceReschedule`, because the system scheduler's stop evaluation never places a replacement
 * by itself. Other outcomes pass through unchanged; a failed evaluation turns that allocation's
 * outcome into `Failed evaluate job: <err>` (the stop has happened).
 *
 * Safe to repeat: a second evaluation of a job places nothing twice.
 */
export async function triggerEvaluations(
  client: NomadClient,
  plan: RestartPlan,
  batchIndex: number,
  outcomes: readonly AllocationOutcome[],
  options: RestartOptions,
  deps: RescheduleDeps,
): Promise<AllocationOutcome[]> {
  const byId = new Map(planBatch(plan, batchIndex).map((allocation) => [allocation.id, allocation]));
  return Promise.all(
    outcomes.map(async (outcome) => {
      const allocation = byId.get(outcome.allocationId);
      if (
        outcome.status !== 'stopped' ||
        allocation === undefined ||
        effectiveJobType(plan, allocation) !== 'system'
      ) {
        return outcome;
      }
      try {
        const result = await client.jobs().evaluate(
          allocation.jobId,
          { forceReschedule: true },
          {
            ...(plan.job.namespace === undefined ? {} : { namespace: plan.job.namespace }),
            ...(deps.signal === undefined ? {} : { signal: deps.signal }),
          },
        );
        deps.emit({
          type: 'evaluation-triggered',
          time: deps.now(),
          allocationId: allocation.id,
          jobId: allocation.jobId,
          evaluationId: result.value.EvalID,
        });
        return outcome;
      } catch (err) {
        return failedOutcome(
          allocation,
          new AllocationStepError({ step: 'evaluate', cause: err, verbose: options.verbose }),
          { verbose: options.verbose },
        );
      }
    }),
  );
}
