/**
 * The record of a local fleet run that ended outside "Summarize fleet" (issue #40): stopped (a
 * `stop` request, a confirmed interrupt), aborted through its signal, or failed in a step. Its
 * provisional record ("Plan fleet"'s) is made final here, from what the engine saw: each job's
 * end is known, so the record counts them as a summary's would.
 */
import { type ControlRequest, describeRequester } from '../../control/requests';
import type { FleetJobName } from '../../fleet/events';
import type { FleetJobEnd } from '../../fleet/job-end';
import { NomadClient } from '../../nomad/client';
import { type NomadClientConfig, resolveNomadConfig } from '../../nomad/config';
import type { RunOutcome } from '../../restart/run/outcome';
import { type FleetRecordEnd, writeFleetRecord } from '../../steps/fleet/fleet-record';
import type { HistoryDeps } from '../../steps/kit/job-history';
import { NomadRunHistory } from '../../stores/nomad-run-history';
import { type FleetState, FleetTaskStates } from '../../workflow/fleet-state-names';
import { jobEndOfItem } from './fleet-events';
import type { ExecutionResult, ItemExecutionSummary } from './types';

/** What the engine saw of a fleet run that did not reach its summary. */
export interface UnsummarizedFleet {
  /** The fleet execution's end. */
  readonly result: Pick<ExecutionResult, 'status' | 'error' | 'cause'>;
  /** How each job the fleet started ended (not the items that never started one). */
  readonly ends: readonly FleetJobEnd[];
  /** Who stopped the fleet with a `stop` request, if someone did. */
  readonly stoppedBy?: string;
  /** The terminal's interrupt was confirmed (its cancel, as the one-job command's). */
  readonly interrupted: boolean;
  readonly endedAt: number;
}

/**
 * The fleet's end as its record says it: `canceled` when someone stopped it (a request or the
 * terminal's interrupt), `aborted` when it was stopped otherwise (its signal), `error` when a
 * step failed it (its error listed first).
 */
export function unsummarizedEnd(fleet: UnsummarizedFleet): FleetRecordEnd {
  const { result, ends, endedAt, stoppedBy } = fleet;
  if (result.status === 'ABORTED') {
    const outcome: RunOutcome = stoppedBy !== undefined || fleet.interrupted ? 'canceled' : 'aborted';
    return { outcome, endedAt, ends, ...(stoppedBy === undefined ? {} : { stoppedBy }) };
  }
  const error = [result.error, result.cause].filter((part) => part !== undefined && part !== '').join(': ');
  return { outcome: 'error', endedAt, ends, ...(error === '' ? {} : { error }) };
}

/** A job's key among the fleet's: its namespace and ID. */
const jobKey = (job: FleetJobName) => `${job.namespace}\u0000${job.job}`;

/** Who stopped the fleet, as the engine knows it when the fleet ends. */
export interface FleetStop {
  /** The `stop` request, if one stopped it. */
  readonly stoppedBy: ControlRequest | undefined;
  /** The terminal's interrupt was confirmed. */
  readonly interrupted: boolean;
}

/**
 * Follows a local fleet run for its record: what "Plan fleet" planned, whether "Summarize fleet"
 * made the record final, and which items never started their job; at the end, makes the record
 * final itself when no summary did (never failing: a failed write is warned of).
 */
export class FleetRecordWatch {
  private planned: FleetState | undefined;
  private summarized = false;
  private readonly neverStarted = new Set<string>();

  public constructor(
    private readonly history: HistoryDeps,
    private readonly stop: () => FleetStop,
  ) {}

  /** A fleet state exited: "Plan fleet" with its state, or "Summarize fleet". */
  public stateExited(name: string, state: FleetState | undefined): void {
    if (name === FleetTaskStates.planFleet && state !== undefined) this.planned = state;
    if (name === FleetTaskStates.summarizeFleet) this.summarized = true;
  }

  /** An item ended without starting its job (the fleet was stopping): not reached, not ended. */
  public jobNeverStarted(job: FleetJobName): void {
    this.neverStarted.add(jobKey(job));
  }

  /** The fleet run ended (`items`: every item execution that ended): its record made final here when no summary did. */
  public async ended(
    result: UnsummarizedFleet['result'],
    items: readonly ItemExecutionSummary[],
    endedAt: number,
  ): Promise<void> {
    if (this.planned === undefined || this.summarized) return;
    const { stoppedBy, interrupted } = this.stop();
    const ends = items.map(jobEndOfItem).filter((end) => !this.neverStarted.has(jobKey(end)));
    const fleet = { result, ends, interrupted, endedAt };
    // Worded as a job's record words who stopped it (`dave@ops (terminal)`).
    const end = unsummarizedEnd(
      stoppedBy === undefined ? fleet : { ...fleet, stoppedBy: describeRequester(stoppedBy) },
    );
    await writeFleetRecord(this.history, this.planned, end);
  }
}

/**
 * The engine's own access to the history, for those ends: the command's Nomad client (as the
 * shared lock's keeper makes it, lib/engines/local/shared-lock-keeper.ts), at a terminal. A write
 * that fails is not shown there (the handlers' are logged, and silent at a terminal too): each
 * job's run says once on stderr that its record was not written, whatever kept it from Nomad.
 */
export function localFleetHistory(nomad: NomadClientConfig | undefined): HistoryDeps {
  const client = NomadClient.create(nomad ?? resolveNomadConfig({}));
  return { store: new NomadRunHistory(client), engine: 'terminal', warn: () => {} };
}
