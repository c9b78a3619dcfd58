/**
 * "Summarize fleet": the fleet run's end. Reads the item list, the plan's skipped list and the
 * Distributed Map's results from the plan store, writes the whole per-job report beside them,
 * marks the run's documents as ended (the bucket's lifecycle may expire them from now on), and
 * returns the fleet's summary (the execution output; the state machine routes on `outcome`) with
 * the `fleet-finished` event a terminal prints as the summary block.
 */
import type { FleetEvent, FleetJobName, FleetSkipReason } from '../../fleet/events';
import { type FleetJobItem, fleetKeys } from '../../fleet/items';
import { type FleetSummary, summarizeFleet } from '../../fleet/summary';
import { resolveWindow, skipsWhenLocked, validateWindowFields, windowHasEnded } from '../../restart/window';
import type { PlanStore } from '../../stores/plan-store';
import { StepPayloadError } from '../../workflow/errors';
import type { FleetState } from '../../workflow/fleet-state-names';
import type { HistoryDeps } from '../kit/job-history';
import { fleetOutcomeOf, writeFleetRecord } from './fleet-record';
import { readJobEnds } from './summarize-fleet';

/** What the step runs with. */
export interface SummarizeFleetDeps {
  readonly planStore: PlanStore;
  /** The clock (Unix ms). */
  readonly now: () => number;
  /** Where the fleet's final record is written (issue #40). @default - no record */
  readonly history?: HistoryDeps;
  /** Who stopped the fleet with a `stop` request, for its record. @default - no one */
  readonly stoppedBy?: string;
}

/** The fleet's summary, and its one event. */
export type SummarizeFleetOutput = FleetSummary & { readonly events: readonly FleetEvent[] };

/** A list the plan wrote; anything else is a wiring bug, named with its key. */
async function readList<T>(store: PlanStore, key: string): Promise<T[]> {
  const value = await store.get(key);
  if (!Array.isArray(value)) throw new StepPayloadError(`Plan store object "${key}" is not a JSON array`);
  return value as T[];
}

/**
 * The fleet's summary from its documents. Emits only `fleet-finished`: each job's own
 * `job-finished` is the engine's to emit as the job ends (5,000 of them would not fit a state).
 */
export async function summarizeFleetStep(
  deps: SummarizeFleetDeps,
  state: FleetState,
): Promise<SummarizeFleetOutput> {
  const { planStore } = deps;
  const keys = fleetKeys(state.run.runId);
  const items = await readList<FleetJobItem>(planStore, state.plan.itemsKey);
  const skipped = await readList<FleetJobName & { reason: FleetSkipReason }>(
    planStore,
    state.plan.skippedKey,
  );
  // A dry run (or a fleet with nothing to restart) never ran the Map: nothing to read.
  const ends =
    state.mapResult === undefined && state.mapError === undefined
      ? []
      : await readJobEnds(planStore, state.mapResult, state.plan.resultsPrefix);
  // The shared options were validated by "Plan fleet": read here for the window and the trigger.
  const window = resolveWindow(validateWindowFields(state.jobOptions), state.run.startedAt);
  const now = deps.now();
  const { summary, report } = summarizeFleet({
    runId: state.run.runId,
    items,
    skipped,
    ends,
    ...(state.mapError === undefined ? {} : { mapError: state.mapError }),
    windowEnded: windowHasEnded(window, now),
    dryRun: state.dryRun,
    scheduled: skipsWhenLocked(window),
    maxFailedJobs: state.budget.maxFailedJobs,
    startedAt: state.run.startedAt,
    finishedAt: now,
    reportKey: keys.report,
  });
  await planStore.put(keys.report, report);
  await planStore.endRun(keys.prefix);
  if (deps.history !== undefined) {
    const withErrors = summary.outcome === 'finished-with-errors';
    const outcome = fleetOutcomeOf({ withErrors, ends, windowEnded: windowHasEnded(window, now) });
    const by = deps.stoppedBy === undefined ? {} : { stoppedBy: deps.stoppedBy };
    await writeFleetRecord(deps.history, state, { outcome, endedAt: now, ends, ...by });
  }
  const event: FleetEvent = {
    type: 'fleet-finished',
    time: now,
    restarted: summary.restarted,
    failed: summary.failed,
    skipped: summary.skipped,
    withErrors: summary.outcome === 'finished-with-errors',
    problems: summary.problems.map(({ namespace, job, problem }) => ({ namespace, job, problem })),
    omittedProblems: summary.omittedProblems,
    report: summary.report,
  };
  return { ...summary, events: [event] };
}
