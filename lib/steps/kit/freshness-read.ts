/**
 * The freshness report's Nomad side: after the last batch, the job's allocations are listed once
 * more, so the report says what Nomad shows and not what the run assumed (issue #38). One
 * request (`GET /v1/job/:id/allocations`, `read-job`, as the plan's), and only for a run with
 * `startedBefore` that planned a restart.
 */
import { NomadQueryError } from '../../restart/errors';
import type { FreshnessReport } from '../../restart/events';
import { freshnessReport, type RunWork } from '../../restart/freshness/report';
import type { RestartOptions } from '../../restart/options';
import type { PlanRef } from '../../workflow/payloads';
import { readJobAllocations } from './job-allocations-read';
import type { StepKit } from './step-kit';

/**
 * The report of the run of `options` and plan `ref`, or `undefined` without `startedBefore` or
 * without a stored plan (nothing was planned: `All <n> allocations started after <T>` said it),
 * so a run without them reads nothing more. A run skipped for the lock restarted nothing and is
 * reported from its plan alone; any other run re-reads the allocations with their task states
 * (the filtered read without them cannot show a start).
 */
export async function readFreshness(
  kit: StepKit,
  options: RestartOptions,
  ref: PlanRef,
  work: RunWork,
): Promise<FreshnessReport | undefined> {
  if (options.startedBefore === undefined || ref.planKey === '') return undefined;
  const plan = await kit.loadPlan(ref.planKey);
  let reread = null;
  if (!work.locked) {
    const client = kit.nomadFor(options);
    const query = plan.job.namespace === undefined ? {} : { namespace: plan.job.namespace };
    try {
      reread = (await readJobAllocations(client, plan.job.id, false, query)).value;
    } catch (err) {
      throw new NomadQueryError('allocations', plan.job.id, err);
    }
  }
  return freshnessReport({
    plan,
    namespace: ref.namespace,
    startedBefore: options.startedBefore,
    scope: { tasks: options.tasks, allTasks: options.allTasks, reschedule: options.reschedule },
    work,
    reread,
  });
}
