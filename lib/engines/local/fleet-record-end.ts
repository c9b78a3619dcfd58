/**
 * The record of a local fleet run that ended outside "Summarize fleet" (issue #40): stopped (a
 * `stop` request, a confirmed interrupt), aborted through its signal, or failed in a step. Its
 * provisional record ("Plan fleet"'s) is made final here, from what the engine saw: each job's
 * end is known, so the record counts them as a summary's would.
 */
import type { FleetJobEnd } from '../../fleet/job-end';
import { NomadClient } from '../../nomad/client';
import { type NomadClientConfig, resolveNomadConfig } from '../../nomad/config';
import type { RunOutcome } from '../../restart/run/outcome';
import { type FleetRecordEnd, writeFleetRecord } from '../../steps/fleet/fleet-record';
import type { HistoryDeps } from '../../steps/kit/job-history';
import { NomadRunHistory } from '../../stores/nomad-run-history';
import type { FleetState } from '../../workflow/fleet-state-names';
import type { ExecutionResult } from './types';

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

/** Ends the provisional record of `state`'s fleet run (none for a dry run), never failing. */
export async function endUnsummarizedFleet(
  history: HistoryDeps,
  state: FleetState,
  fleet: UnsummarizedFleet,
): Promise<void> {
  await writeFleetRecord(history, state, unsummarizedEnd(fleet));
}

/**
 * The engine's own access to the history, for those ends: the command's Nomad client (as the
 * shared lock's keeper makes it, lib/engines/local/shared-lock-keeper.ts), at a terminal.
 * @param warn where a write that failed is told (the run's outcome stands either way)
 */
export function localFleetHistory(
  nomad: NomadClientConfig | undefined,
  warn: HistoryDeps['warn'],
): HistoryDeps {
  const client = NomadClient.create(nomad ?? resolveNomadConfig({}));
  return { store: new NomadRunHistory(client), engine: 'terminal', warn };
}
