/**
 * A fleet run's own record (issue #40) in the fleets' history of its namespace
 * (`FLEET_HISTORY_PATH`): who started it, why, what it selected, and its jobs by outcome. Counts
 * are in jobs: planned = the jobs to restart, restarted = those that succeeded, failed = those
 * that failed, skipped = the jobs the plan left out (their kind, nothing in scope...), not reached
 * = the jobs to restart that never started. Each job's own run writes its own record, linked to
 * this one by `fleetRunId`.
 */
import type { FleetJobOutcome } from '../../fleet/events';
import type { FleetJobEnd } from '../../fleet/job-end';
import { ALL_NAMESPACES, type FleetOptions } from '../../fleet/options';
import { problemText } from '../../fleet/reasons';
import { RECORD_VERSION, type RunRecord } from '../../history/record';
import { boundRecordErrors } from '../../history/record-errors';
import type { HistoryPlace } from '../../history/run-history';
import { flag as flagInShort } from '../../restart/run/options-short';
import type { RunOutcome } from '../../restart/run/outcome';
import { runStarter } from '../../restart/run/starter';
import type { FleetState } from '../../workflow/fleet-state-names';
import type { HistoryDeps } from '../kit/job-history';

/** How a fleet run ended, for its final record. Times are Unix ms. */
export interface FleetRecordEnd {
  readonly outcome: RunOutcome;
  readonly endedAt: number;
  /** How each started job ended. */
  readonly ends: readonly FleetJobEnd[];
  /** Who stopped the fleet (a `stop` request), when someone did. */
  readonly stoppedBy?: string;
  /** The fleet execution's own error, when it failed before its summary (listed first). */
  readonly error?: string;
}

/** The longest selection kept in a record: a filter can be long, and every record shares 64 KiB. */
export const MAX_FLEET_OPTIONS_LENGTH = 300;

/**
 * The namespace whose fleets' history holds a fleet's record: the one it selected, and `default`
 * for a fleet over every namespace (`*` names no namespace a variable could live in).
 * @param selected the namespace the fleet listed jobs in (the client's when the input named none)
 */
export function fleetRecordNamespace(selected: string): string {
  return selected === ALL_NAMESPACES ? 'default' : selected;
}

/** `text` cut to `max` characters, `…` marking the cut. */
const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/**
 * The fleet's selection, order and budget as the `fleet` command's flags (`-namespace=prod
 * -filter="Meta.team == \"payments\"" -max-jobs=2 -max-failed-jobs=0`), at most
 * {@link MAX_FLEET_OPTIONS_LENGTH} characters. Each job's record says its own restart options.
 */
export function fleetOptionsInShort(options: FleetOptions): string {
  const { selection: s } = options;
  const flags: string[] = [];
  const add = (name: string, values: readonly string[] | string | undefined) => {
    for (const value of typeof values === 'string' ? [values] : (values ?? []))
      flags.push(flagInShort(name, value));
  };
  add('namespace', s.namespace);
  add('filter', s.filter);
  add('node', s.nodes);
  add('node-pool', s.nodePool);
  add('datacenter', s.datacenters);
  add('uses-variable', s.usesVariables);
  add('uses-secret', s.usesSecrets);
  if (options.stale) flags.push('-stale');
  if (options.order !== 'id') add('order', options.order);
  flags.push(`-max-jobs=${options.maxJobs}`, `-max-failed-jobs=${options.maxFailedJobs}`);
  return cut(flags.join(' '), MAX_FLEET_OPTIONS_LENGTH);
}

/** A job's end as a run outcome, the word its own record uses. */
const JOB_OUTCOMES: Readonly<Record<FleetJobOutcome, RunOutcome>> = {
  restarted: 'succeeded',
  failed: 'failed',
  locked: 'skipped-job-locked',
  'stopped-at-window-end': 'stopped-at-window-end',
  canceled: 'canceled',
};

/**
 * The fleet run's outcome in the record's words: `succeeded` when its summary has no error;
 * else `failed` when a job failed (a spent failure budget means one did), `stopped-at-window-end` when
 * the window ended it, `canceled` when it was stopped (its jobs canceled), `failed` otherwise (a
 * job locked outside a schedule, one that did not finish its run).
 */
export function fleetOutcomeOf(facts: {
  readonly withErrors: boolean;
  readonly ends: readonly FleetJobEnd[];
  readonly windowEnded: boolean;
}): RunOutcome {
  if (!facts.withErrors) return 'succeeded';
  if (facts.ends.some((e) => e.outcome === 'failed')) return 'failed';
  if (facts.windowEnded) return 'stopped-at-window-end';
  if (facts.ends.some((e) => e.outcome === 'canceled')) return 'canceled';
  return 'failed';
}

/** The fleet's own error, then the failed jobs' reasons, within the record's bounds. */
function failures(state: FleetState, end: FleetRecordEnd): Pick<RunRecord, 'errors' | 'omittedErrors'> {
  const ctx = { maxFailedJobs: state.budget.maxFailedJobs };
  const failed = end.ends.flatMap((e) =>
    e.outcome === 'failed' && e.problem !== undefined
      ? [`${e.namespace}/${e.job}: ${problemText(e.problem, ctx)}`]
      : [],
  );
  return boundRecordErrors([...(end.error === undefined ? [] : [end.error]), ...failed]);
}

/** The fleets' history a fleet run's record is kept in; `undefined` when it keeps none (a dry run). */
export function fleetPlaceOf(state: FleetState): HistoryPlace | undefined {
  const ref = state.run.history;
  return ref === undefined ? undefined : { namespace: ref.namespace, fleets: true };
}

/**
 * The fleet run's record: provisional (`running`) without `end`, final with it. `undefined` when
 * the run keeps no record (a dry run: it changes nothing, history included).
 */
export function fleetRecordOf(state: FleetState, end?: FleetRecordEnd): RunRecord | undefined {
  const ref = state.run.history;
  if (ref === undefined) return undefined;
  const { reason, scheduleName } = state.jobOptions;
  const counted = (outcome: FleetJobOutcome) => (end?.ends ?? []).filter((e) => e.outcome === outcome).length;
  const jobOutcomes: Partial<Record<RunOutcome, number>> = {};
  for (const e of end?.ends ?? []) {
    const outcome = JOB_OUTCOMES[e.outcome];
    jobOutcomes[outcome] = (jobOutcomes[outcome] ?? 0) + 1;
  }
  return {
    version: RECORD_VERSION,
    runId: state.run.runId,
    kind: 'fleet',
    namespace: ref.namespace,
    jobId: '',
    engine: ref.engine,
    // The command's user@host, else the schedule, else the console: as a job's run says it.
    startedBy: runStarter(scheduleName === undefined ? {} : { scheduleName }, state.run.startedBy),
    ...(reason === undefined ? {} : { reason }),
    options: ref.options,
    outcome: end?.outcome ?? 'running',
    counts: {
      planned: state.plan.jobs,
      restarted: counted('restarted'),
      failed: counted('failed'),
      skipped: state.plan.skipped,
      notReached: end === undefined ? 0 : Math.max(0, state.plan.jobs - end.ends.length),
    },
    startedAt: state.run.startedAt,
    ...(end === undefined ? {} : { endedAt: end.endedAt, jobOutcomes }),
    ...(ref.windowEnd === undefined ? {} : { windowEnd: ref.windowEnd }),
    ...(ref.executionArn === undefined ? {} : { executionArn: ref.executionArn }),
    ...(end?.stoppedBy === undefined ? {} : { stoppedBy: end.stoppedBy }),
    ...(end === undefined ? { errors: [], omittedErrors: 0 } : failures(state, end)),
  };
}

/**
 * Writes the fleet's record ({@link fleetRecordOf}), provisional or final; nothing for a run that
 * keeps none. A failed write is told to `warn` and swallowed: the record is the run's trace, not
 * its work, and a restart that went well must not end failed for it.
 */
export async function writeFleetRecord(
  history: HistoryDeps,
  state: FleetState,
  end?: FleetRecordEnd,
): Promise<void> {
  const place = fleetPlaceOf(state);
  const record = fleetRecordOf(state, end);
  if (place === undefined || record === undefined) return;
  try {
    await history.store.put(place, record);
  } catch (err) {
    history.warn(`Fleet run ${JSON.stringify(record.runId)} not recorded in the restart history`, err);
  }
}
