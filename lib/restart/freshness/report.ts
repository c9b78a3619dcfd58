/**
 * The freshness report of a run with `startedBefore` (issue #38): per job, how many allocations
 * were in scope, how many this run restarted, how many were already fresh, and which are still
 * stale and why. Pure: "Finish restart" re-reads the job's allocations from Nomad after the last
 * batch and hands them here, so the report says what Nomad shows, not what the run assumed.
 */
import type { AllocListStub } from '../../nomad/types';
import { firstThatFit } from '../error-sample';
import type { FreshnessReport, StaleWhy } from '../events';
import { startedAfter, type TaskScopeOptions, tasksInScope } from '../filter';
import type { RestartPlan } from '../plan';
import { taskStartedAt } from '../started-before';

/** What the run did, as "Finish restart" knows it. */
export interface RunWork {
  /** Batches the run settled: those before this index were reached, the rest were not. */
  readonly reachedBatches: number;
  /** Allocations with an error in the run's record. */
  readonly failed: ReadonlySet<string>;
  /** The run was skipped because another run held the job: it restarted nothing. */
  readonly locked: boolean;
}

/** UTF-8 bytes of stale entries a report may carry in a workflow state (../error-sample.ts). */
export const STALE_BUDGET_BYTES = 8_000;

/**
 * Whether the re-read shows `stub` fresh: it runs, and its tasks in scope include one that
 * started at or after `startedBefore` and none that started before. Proof, not the plan's benefit
 * of the doubt: a task that never started, or an allocation not running, proves nothing.
 */
export function shownFresh(stub: AllocListStub, scope: TaskScopeOptions, startedBefore: number): boolean {
  if (stub.ClientStatus !== 'running') return false;
  // The plan's rule (../filter.ts) takes a task that never started as fresh; here one must have.
  const started = tasksInScope(stub, scope).some(
    (task) => taskStartedAt(stub.TaskStates?.[task]?.StartedAt) !== undefined,
  );
  return started && startedAfter(stub, scope, startedBefore);
}

/**
 * The allocation that stands for `id` now: itself, or the last replacement its `NextAllocation`
 * chain leads to (`-reschedule`, or Nomad replacing a lost one); `undefined` when the re-read no
 * longer lists it (garbage collected).
 */
function current(id: string, byId: ReadonlyMap<string, AllocListStub>): AllocListStub | undefined {
  let stub = byId.get(id);
  // Bounded: a chain longer than the listing would be a loop in what Nomad sent.
  for (let hops = 0; stub?.NextAllocation && hops < byId.size; hops += 1) {
    const next = byId.get(stub.NextAllocation);
    if (next === undefined) break;
    stub = next;
  }
  return stub;
}

/** What a report is made from. */
export interface FreshnessFacts {
  readonly plan: RestartPlan;
  readonly namespace: string;
  readonly startedBefore: number;
  readonly scope: TaskScopeOptions;
  readonly work: RunWork;
  /** The job's allocations listed after the last batch; `null` when the run restarted nothing (locked). */
  readonly reread: readonly AllocListStub[] | null;
}

/**
 * The report: `checked` = the plan's allocations plus those it skipped as already fresh or
 * already restarted by an earlier run of the same restart; each planned allocation the re-read
 * does not show fresh is stale (`locked` when the run was skipped, `failed` when its batch ran,
 * `not-reached` otherwise), a planned one shown fresh counts as restarted when its batch ran
 * and as already fresh when something else restarted it. The stale list is cut to
 * {@link STALE_BUDGET_BYTES} so a workflow state stays small; `staleOmitted` counts the rest.
 */
export function freshnessReport(facts: FreshnessFacts): FreshnessReport {
  const { plan, work, scope, startedBefore } = facts;
  const byId = new Map((facts.reread ?? []).map((stub) => [stub.ID, stub]));
  const fresh = (id: string) => {
    const stub = facts.reread === null ? undefined : current(id, byId);
    return stub !== undefined && shownFresh(stub, scope, startedBefore);
  };
  const skippedFresh = plan.skipped.filter((s) => s.reason.kind === 'started-after').length;
  // Restarted by an earlier run of the same restart: in scope, and left to the re-read's proof.
  const earlier = plan.skipped.filter((s) => s.reason.kind === 'done').map((s) => s.id);
  let restarted = 0;
  let alreadyFresh = skippedFresh;
  const stale: { allocationId: string; why: StaleWhy }[] = [];
  plan.batches.forEach((batch, index) => {
    const reached = !work.locked && index < work.reachedBatches;
    for (const { id } of batch) {
      if (fresh(id)) {
        if (reached && !work.failed.has(id)) restarted += 1;
        else alreadyFresh += 1;
      } else {
        stale.push({ allocationId: id, why: staleWhy(work, reached || work.failed.has(id)) });
      }
    }
  });
  for (const id of earlier) {
    if (fresh(id)) alreadyFresh += 1;
    else stale.push({ allocationId: id, why: work.locked ? 'locked' : 'not-reached' });
  }
  const { kept, omitted } = firstThatFit(
    stale,
    STALE_BUDGET_BYTES,
    (s) => s.allocationId.length + s.why.length + 40,
  );
  return {
    namespace: facts.namespace,
    jobId: plan.job.id,
    startedBefore,
    checked: plan.counts.eligible + skippedFresh + earlier.length,
    restarted,
    alreadyFresh,
    stale: kept,
    ...(omitted > 0 ? { staleOmitted: omitted } : {}),
  };
}

function staleWhy(work: RunWork, tried: boolean): StaleWhy {
  if (work.locked) return 'locked';
  return tried ? 'failed' : 'not-reached';
}
