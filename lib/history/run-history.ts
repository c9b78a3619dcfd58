/**
 * Where run records (record.ts) are kept and read: the contract the Nomad store
 * (lib/stores/nomad-run-history.ts), the steps that write and the `history` command that reads
 * share. One history per job (`nomad-restart/history/<job>` in the job's namespace) and one for
 * the namespace's fleet runs.
 */
import type { RecordOutcome, RunRecord } from './record';

/** Which history: one job's, or the fleet runs' of a namespace. */
export type HistoryPlace =
  | { readonly namespace: string; readonly jobId: string }
  | { readonly namespace: string; readonly fleets: true };

/** How a run that ended outside "Finish restart" ended, for its provisional record. */
export interface UnfinishedEnd {
  readonly outcome: Exclude<RecordOutcome, 'running'>;
  readonly endedAt: number;
  /** Why, when known (the execution's error and cause, an interrupt). */
  readonly errors?: readonly string[];
}

/** A history's records, as one read found them. */
export interface HistoryRead {
  /** Newest first (by `startedAt`). */
  readonly records: readonly RunRecord[];
  /** Items that were not a readable record (written by a newer version, or by hand); left alone. */
  readonly unreadable: number;
}

/** The run history store. */
export interface RunHistory {
  /**
   * Adds run `record.runId`'s record to `place`'s history, replacing the run's earlier record
   * (its provisional one), and drops the oldest records to stay within Nomad's variable size. A
   * check-and-set write, retried on a conflict, so two runs ending at once both keep theirs. A
   * token that may not write the history is reported once as a warning; the run goes on.
   */
  put(place: HistoryPlace, record: RunRecord): Promise<void>;
  /**
   * Ends run `runId`'s provisional record as `end` says (an execution aborted or timed out, an
   * interrupt confirmed at a terminal); `false` when there is none (no record, or already final).
   */
  endUnfinished(place: HistoryPlace, runId: string, end: UnfinishedEnd): Promise<boolean>;
  /** `place`'s records; none when it has no history. A token that may not read it throws. */
  read(place: HistoryPlace): Promise<HistoryRead>;
  /** Every history in `namespace` (`*`: every namespace the token may list). */
  places(namespace: string): Promise<HistoryPlace[]>;
}
