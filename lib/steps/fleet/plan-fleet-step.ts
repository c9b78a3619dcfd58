/**
 * "Plan fleet": the fleet input validated, the jobs selected and planned, the item list and the
 * skipped list written to the plan store under the run's keys, and the fleet's state (O(1) in its
 * size) handed to the Distributed Map. Bad input (an alarm of `stopOnAlarms` that does not exist
 * too), and a selection Nomad refuses, end the run in `InvalidInput` before anything is touched.
 */
import type { FleetEvent } from '../../fleet/events';
import { sharedJobInput, validateFleetInput } from '../../fleet/input';
import { fleetKeys } from '../../fleet/items';
import type { FleetJobOptions, FleetOptions } from '../../fleet/options';
import type { NomadClient } from '../../nomad/client';
import type { AlarmReader } from '../../restart/alarms';
import { RestartValidationError } from '../../restart/errors';
import { copyScope } from '../../restart/job-scope';
import type { RestartOptions } from '../../restart/options';
import { resolveWindow } from '../../restart/window';
import type { PlanStore } from '../../stores/plan-store';
import { InvalidInputError, StepPayloadError } from '../../workflow/errors';
import type { FleetHistoryRef, FleetState } from '../../workflow/fleet-state-names';
import { refuseMissingAlarms } from '../alarms/alarms-exist';
import type { HistoryDeps } from '../kit/job-history';
import { listQuery } from './fleet-listing';
import { fleetOptionsInShort, fleetRecordNamespace, writeFleetRecord } from './fleet-record';
import { type FleetPlan, planFleet } from './plan-fleet';

/** The Task's payload (`{input: $, executionId: $$.Execution.Id, executionName: ..., startTime: ...}`). */
export interface PlanFleetPayload {
  readonly input: unknown;
  readonly executionId: string;
  readonly executionName: string;
  readonly startTime: string;
}

/** What the step runs with. */
export interface PlanFleetDeps {
  readonly nomad: NomadClient;
  readonly planStore: PlanStore;
  /** Unix ms now; the execution's start wins when the payload has it. */
  readonly now: () => number;
  readonly signal?: AbortSignal;
  /** Reads the fleet's `stopOnAlarms` once, before planning. @default - none: a fleet with alarms is refused */
  readonly alarms?: AlarmReader;
  /** Sees the `fleet-planned` event (the local engine's terminal). @default - not shown live */
  readonly onFleetEvent?: (event: FleetEvent) => void;
  /**
   * Where the fleet's provisional record is written (issue #40), by which engine, and where a
   * write that failed is told (it never fails the run). @default - no record
   */
  readonly history?: HistoryDeps;
}

/** The payload's fields, checked: the state machine always passes them. */
export function decodePlanFleetPayload(event: unknown): PlanFleetPayload {
  const e = (event ?? {}) as Record<string, unknown>;
  for (const field of ['executionId', 'executionName', 'startTime'] as const) {
    if (typeof e[field] !== 'string' || e[field] === '') {
      throw new StepPayloadError(`Task input has no "${field}": the state machine passes $$.Execution`);
    }
  }
  return {
    input: e['input'],
    executionId: e['executionId'] as string,
    executionName: e['executionName'] as string,
    startTime: e['startTime'] as string,
  };
}

/**
 * A relative window (`windowDuration`) counted from the fleet's start, once: each job's run then
 * gets the same absolute end, however late the Map starts it.
 */
function withWindowResolved(jobOptions: FleetJobOptions, startedAt: number): FleetJobOptions {
  const asJob: RestartOptions = { ...jobOptions, job: '', groups: [], tasks: [] };
  const { job: _job, groups: _groups, tasks: _tasks, ...resolved } = resolveWindow(asJob, startedAt);
  return resolved;
}

/**
 * Where the record goes and what it says of the selection. None for a dry run, which changes
 * nothing, nor for a fleet with no job to restart: it restarts nothing and writes nothing, so a
 * schedule that finds nothing stale every 15 minutes (docs/schedules.md) neither writes to Nomad
 * nor pushes the fleets that did restart something out of the history's 64 KiB.
 */
function historyRefOf(
  deps: PlanFleetDeps,
  nomad: NomadClient,
  options: FleetOptions,
  jobOptions: FleetJobOptions,
  plan: FleetPlan,
  executionId: string,
): FleetHistoryRef | undefined {
  if (deps.history === undefined || jobOptions.dryRun || plan.items.length === 0) return undefined;
  const { engine } = deps.history;
  return {
    namespace: fleetRecordNamespace(listQuery(nomad, options.selection.namespace, undefined).namespace),
    options: fleetOptionsInShort(options),
    engine,
    ...(engine === 'aws' ? { executionArn: executionId } : {}),
    ...(jobOptions.windowEnd === undefined ? {} : { windowEnd: jobOptions.windowEnd }),
  };
}

function refusedInput(err: unknown): never {
  if (err instanceof RestartValidationError) throw new InvalidInputError(err.message, { cause: err });
  throw err;
}

/** Runs "Plan fleet". */
export async function planFleetStep(deps: PlanFleetDeps, payload: PlanFleetPayload): Promise<FleetState> {
  // Questions are allowed, as in a one-job execution: chat, the console or a terminal answer them.
  const started = Date.parse(payload.startTime);
  const startedAt = Number.isNaN(started) ? deps.now() : started;
  let options: ReturnType<typeof validateFleetInput>;
  try {
    // A relative startedBefore counts back from the fleet's start, once: every job gets the same
    // absolute time (in its input, as RFC 3339), however late the Map starts it.
    options = validateFleetInput(payload.input, { interactive: true, now: startedAt });
  } catch (err) {
    refusedInput(err);
  }
  // Before any Nomad read and the item list: a fleet with an alarm that does not exist starts no job.
  await refuseMissingAlarms(deps.alarms, options.jobOptions.stopOnAlarms, deps.signal);
  const runId = payload.executionName;
  const jobOptions = withWindowResolved(options.jobOptions, startedAt);
  const nomad = jobOptions.region === undefined ? deps.nomad : deps.nomad.withRegion(jobOptions.region);
  const plan = await planFleet(nomad, options, runId, deps.signal, deps.planStore);
  const keys = fleetKeys(runId);
  await deps.planStore.put(keys.items, plan.items);
  await deps.planStore.put(keys.skipped, plan.skipped);
  deps.onFleetEvent?.(plannedEvent(plan, deps.now()));
  const startedBy = (payload.input as { startedBy?: unknown }).startedBy;
  const by = typeof startedBy === 'string' && startedBy !== '' ? startedBy : undefined;
  const history = historyRefOf(deps, nomad, options, jobOptions, plan, payload.executionId);
  const state: FleetState = {
    run: {
      runId,
      startedAt,
      ...(by === undefined ? {} : { startedBy: by }),
      ...(history === undefined ? {} : { history }),
    },
    plan: {
      itemsKey: keys.items,
      skippedKey: keys.skipped,
      resultsPrefix: keys.results,
      jobs: plan.items.length,
      allocations: plan.allocations,
      skipped: plan.skipped.length,
      namespaces: plan.namespaces,
      ...(plan.consumers === undefined ? {} : { consumers: plan.consumers }),
      ...(plan.variables === undefined ? {} : { variables: plan.variables }),
    },
    budget: { maxJobs: options.maxJobs, maxFailedJobs: options.maxFailedJobs },
    jobOptions: {
      ...sharedJobInput(jobOptions, by),
      ...(plan.scope === undefined ? {} : { scope: copyScope(plan.scope) }),
    },
    dryRun: jobOptions.dryRun,
  };
  // Provisional: a fleet that dies before its summary is seen as one that never finished.
  if (deps.history !== undefined) await writeFleetRecord(deps.history, state);
  return state;
}

function plannedEvent(plan: FleetPlan, time: number): FleetEvent {
  return {
    type: 'fleet-planned',
    time,
    jobs: plan.items.length,
    allocations: plan.allocations,
    skipped: plan.skipped,
    namespaces: plan.namespaces,
    ...(plan.consumers === undefined ? {} : { consumers: plan.consumers }),
    ...(plan.variables === undefined ? {} : { variables: plan.variables }),
  };
}
