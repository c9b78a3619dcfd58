/**
 * "Plan restart": resolves the job, plans and stores the batches, and chooses the first move
 * (nothing to do, the multi-region question, or the first batch). Makes no Nomad writes.
 */
import type { RestartOptions } from '../../restart/options';
import type { PlannedJob } from '../../restart/plan';
import { multiRegionQuestion } from '../../restart/questions';
import { planKeys } from '../../stores/plan-keys';
import type { Progress } from '../../workflow/payloads';
import type { PlanOutput, StepInput } from '../../workflow/restart-steps';
import { checkConsulBeforeFirstBatch } from '../health/consul-checks-watch';
import { rememberPlan } from '../kit/plan-cache';
import { decision, pendingQuestion, type StepKit } from '../kit/step-kit';
import { carryOverKey, loadCarryOver } from './carry-over';
import { jobRunKey, readUnfinishedRun, workOf } from './earlier-run';
import { planRestart } from './plan';

/** A run's progress before its first batch: nothing done yet, the `-batch-wait` between batches. */
export function startingProgress(options: RestartOptions): Progress {
  return {
    nextBatch: 0,
    batchesThisExecution: 0,
    restarted: 0,
    failed: 0,
    errorCount: 0,
    askBetweenBatches: options.batchWait.kind === 'ask',
    batchWaitMs: options.batchWait.kind === 'duration' ? options.batchWait.ns / 1e6 : 0,
    canceled: false,
  };
}

export async function planStep(kit: StepKit, { options, run }: StepInput): Promise<PlanOutput> {
  const { planStore, now, signal } = kit;
  const nomad = kit.nomadFor(options);
  const { events, emit } = kit.recorder({ live: false });
  const namespaceOf = (job: PlannedJob) => job.namespace ?? options.namespace ?? 'default';
  const carryKey = carryOverKey(options);
  const done = carryKey === undefined ? undefined : await loadCarryOver(kit, carryKey);
  const planned = await planRestart(nomad, options, {
    emit,
    now,
    signal,
    ...(done === undefined ? {} : { done }),
    earlierRun: async (job, stubs) => {
      const earlier = await readUnfinishedRun(planStore, jobRunKey(namespaceOf(job), job.id), run.runId);
      if (earlier === undefined) return undefined;
      const namespace = namespaceOf(job);
      return workOf(
        earlier,
        stubs,
        async (id) => (await nomad.allocations().info(id, { namespace, signal })).value,
      );
    },
  });
  const plan = planned.kind === 'plan' ? planned : undefined;
  await checkConsulBeforeFirstBatch(kit.consul, plan?.consulServices ?? [], signal);
  const planKey = planKeys.plan(run.runId);
  if (plan) {
    await planStore.put(planKey, plan);
    rememberPlan(planKey, plan);
  }
  const job = planned.job;
  const progress = startingProgress(options);
  const askMultiregion = plan !== undefined && job.multiregion && !options.yes;
  const next = !plan
    ? decision('finish')
    : askMultiregion
      ? decision('ask', { question: pendingQuestion(multiRegionQuestion(job.id), '', now()) })
      : decision('batch');
  // Nomad asks the multi-region question before it prints anything about the plan: the
  // plan's lines wait in the store until the answer is yes (see apply-answer-step.ts).
  if (askMultiregion) await planStore.put(planKeys.heldEvents(run.runId), events);
  return {
    events: askMultiregion ? [] : events,
    progress,
    decision: next,
    plan: {
      planKey: plan ? planKey : '',
      jobId: job.id,
      namespace: namespaceOf(job),
      jobType: job.type ?? '',
      allocationCount: plan?.counts.eligible ?? 0,
      batchSize: plan?.batchSize ?? 0,
      batchCount: plan?.batches.length ?? 0,
      triggerEvaluations: options.reschedule && job.type === 'system',
      ...('counts' in planned ? { skipped: planned.counts.skippedBy } : {}),
    },
  };
}
