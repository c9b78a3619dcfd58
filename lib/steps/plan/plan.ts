/**
 * Makes the restart plan: resolves the job, reads its allocations (and its versions when they are
 * needed, ./job-versions.ts), filters, sorts and cuts them into batches as Nomad's command does
 * (`command/job_restart.go` `Run`).
 */
import type { NomadClient } from '../../nomad/client';
import type { AllocListStub } from '../../nomad/types';
import { cutBatches, resolveBatchSize, resolveMaxErrors } from '../../restart/batches';
import { type EarlierRunWork, withReplacements } from '../../restart/earlier-work';
import { NomadQueryError, RescheduleNotAllowedError } from '../../restart/errors';
import type { EmitProgress, ProgressEvent } from '../../restart/events';
import { filterAllocations, type PlannedAllocation, sortAllocations } from '../../restart/filter';
import type { RestartOptions } from '../../restart/options';
import type { PlanCounts, PlannedJob, PlanResult, RestartPlan } from '../../restart/plan';
import { countSkipped } from '../../restart/run-summary';
import { consulServiceNames } from '../health/consul-declared';
import { PlanBatchOutOfRangeError } from '../kit/errors';
import { readAllocationsToPlan } from '../kit/job-allocations-read';
import { versionsToFilter } from './job-versions';
import { type ResolvedJob, resolveJob } from './resolve-job';
import { allocationsInScope } from './scope';

/**
 * Job types `-reschedule` accepts; sysbatch and unknown types are never replaced (Nomad's
 * `command/job_restart.go` `Run`).
 */
const RESCHEDULABLE_TYPES: ReadonlySet<string> = new Set(['batch', 'service', 'system']);

/** Dependencies of {@link planRestart}. */
export interface PlanDeps {
  readonly emit: EmitProgress;
  /** Unix ms. */
  readonly now: () => number;
  readonly signal?: AbortSignal;
  /**
   * Asks `Are you sure you want to restart multi-region job ...` for a multi-region job
   * without `-yes`, at Nomad's point (before the allocations and versions are read). `false` cancels.
   * @default - not asked here; the caller checks `plan.job.multiregion` itself
   */
  readonly confirmMultiregion?: (jobId: string) => Promise<boolean>;
  /** Allocations an earlier run of the same restart already restarted: skipped. @default - none */
  readonly done?: ReadonlySet<string>;
  /**
   * What the job's earlier run that never ended did, if there is one, given the job's
   * allocations now: skipped like `done`.
   * @default - nothing is resumed (the dry run, Nomad's behaviour)
   */
  readonly earlierRun?: (
    job: PlannedJob,
    stubs: readonly AllocListStub[],
  ) => Promise<EarlierRunWork | undefined>;
}

function plannedJob(resolved: ResolvedJob): PlannedJob {
  const regions = resolved.job.Multiregion?.Regions;
  return {
    id: resolved.id,
    ...(resolved.namespace === undefined ? {} : { namespace: resolved.namespace }),
    ...(resolved.job.Type === undefined ? {} : { type: resolved.job.Type }),
    multiregion: Array.isArray(regions) && regions.length > 0,
  };
}

/**
 * Plans a restart (Nomad's `command/job_restart.go` `Run`, up to the batch loop): resolves the job,
 * refuses `-reschedule` for job types that are never replaced before anything is touched, reads
 * allocations (then versions, only when an allocation to filter is on another version than the
 * job's), filters and sorts them with the domain rules, and cuts batches.
 *
 * Emits `allocation-skipped` (verbose only), then `nothing-to-restart` (or `all-started-after`) or
 * `restart-started`.
 * Read-only: the only Nomad calls are GETs.
 */
export async function planRestart(
  client: NomadClient,
  options: RestartOptions,
  deps: PlanDeps,
): Promise<PlanResult> {
  const resolved = await resolveJob(client, options.job, {
    namespace: options.namespace,
    signal: deps.signal,
  });
  const job = plannedJob(resolved);
  if (options.reschedule && !RESCHEDULABLE_TYPES.has(job.type ?? '')) {
    throw new RescheduleNotAllowedError(job.type);
  }
  if (job.multiregion && !options.yes && deps.confirmMultiregion !== undefined) {
    if (!(await deps.confirmMultiregion(job.id))) {
      return { kind: 'canceled', job };
    }
  }

  const query = {
    ...(job.namespace === undefined ? {} : { namespace: job.namespace }),
    ...(deps.signal === undefined ? {} : { signal: deps.signal }),
  };
  const definition = { id: job.id, definition: resolved.job };
  let stubs: AllocListStub[];
  try {
    stubs = (await readAllocationsToPlan(client, definition, options, query)).value;
  } catch (err) {
    throw new NomadQueryError('allocations', job.id, err);
  }
  // A fleet's node scope: the job's other allocations are not this run's to restart or report.
  stubs = await allocationsInScope(client, options.scope, stubs, deps.signal);
  const versionMap = await versionsToFilter(client, definition, stubs, options.groups, query);

  // One way to skip what earlier runs did (a window's carry-over, an interrupted run's work):
  // `done`, with the replacements of what they stopped, so a fresh replacement is not stopped again.
  const resumed = await deps.earlierRun?.(job, stubs);
  const earlier = [...(deps.done ?? []), ...(resumed?.restarted ?? []), ...(resumed?.stopped ?? [])];
  const { eligible, skipped } = filterAllocations(sortAllocations(stubs), versionMap, {
    groups: options.groups,
    tasks: options.tasks,
    allTasks: options.allTasks,
    reschedule: options.reschedule,
    ...(options.startedBefore === undefined ? {} : { startedBefore: options.startedBefore }),
    ...(earlier.length === 0 ? {} : { done: withReplacements(earlier, stubs) }),
  });
  const skippedAsDone = skipped.filter((skip) => skip.reason.kind === 'done').length;
  if (resumed !== undefined && skippedAsDone > 0) {
    deps.emit({
      type: 'earlier-run-resumed',
      time: deps.now(),
      previousRun: resumed.runId,
      skipped: skippedAsDone,
    });
  }
  if (options.verbose) {
    for (const skip of skipped) {
      deps.emit({ type: 'allocation-skipped', time: deps.now(), allocationId: skip.id, reason: skip.reason });
    }
  }
  const counts: PlanCounts = {
    listed: stubs.length,
    eligible: eligible.length,
    skipped: skipped.length,
    skippedBy: countSkipped(skipped.map((skip) => skip.reason)),
  };
  if (eligible.length === 0) {
    deps.emit(nothingToRestartEvent(options, counts, deps.now()));
    return { kind: 'nothing-to-restart', job, counts };
  }

  const batchSize = resolveBatchSize(options.batchSize, eligible.length);
  const maxErrors =
    options.maxErrors === undefined ? undefined : resolveMaxErrors(options.maxErrors, eligible.length);
  const createdAt = deps.now();
  deps.emit({ type: 'restart-started', time: createdAt, count: eligible.length });
  // The gate reads Consul only for what the restarted allocations' own job versions declare.
  const consulServices =
    options.waitHealthy === undefined
      ? []
      : consulServiceNames(
          eligible.map((alloc) => {
            const version = alloc.jobVersion === undefined ? undefined : versionMap.get(alloc.jobVersion);
            return (version ?? resolved.job).TaskGroups?.find((g) => g.Name === alloc.group);
          }),
        );
  return {
    kind: 'plan',
    job,
    batchSize,
    ...(consulServices.length === 0 ? {} : { consulServices }),
    batches: cutBatches(eligible, batchSize),
    skipped,
    counts,
    ...(maxErrors === undefined ? {} : { maxErrors }),
    createdAt,
    ...(resumed === undefined || resumed.restarted.length + resumed.stopped.length === 0 ? {} : { resumed }),
  };
}

/**
 * What a plan with nothing to restart says: with `-started-before`, when the rules kept some
 * allocations and every one of them was fresh, `All <n> allocations started after <T>` (a repeated
 * run that finds its work done says so); otherwise Nomad's `No allocations to restart`.
 */
function nothingToRestartEvent(options: RestartOptions, counts: PlanCounts, time: number): ProgressEvent {
  const fresh = counts.skippedBy.alreadyFresh ?? 0;
  return options.startedBefore === undefined || fresh === 0
    ? { type: 'nothing-to-restart', time }
    : { type: 'all-started-after', time, count: fresh, startedBefore: options.startedBefore };
}

/** The allocations of one batch of a stored plan. */
export function planBatch(plan: RestartPlan, batchIndex: number): PlannedAllocation[] {
  const batch = plan.batches[batchIndex];
  if (batch === undefined) {
    throw new PlanBatchOutOfRangeError(batchIndex, plan.batches.length);
  }
  return batch;
}

/**
 * Whether `batchIndex` is the plan's last batch (no question or wait follows it, Nomad's
 * `command/job_restart.go` `Run`).
 */
export function isLastBatch(plan: RestartPlan, batchIndex: number): boolean {
  return batchIndex >= plan.batches.length - 1;
}
