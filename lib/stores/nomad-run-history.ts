/**
 * The run history (lib/history) kept in Nomad: one variable per job, `nomad-restart/history/<job>`
 * in the job's namespace, and one per namespace for its fleet runs (`nomad-restart/history/~fleets`),
 * each run one item (key: the run ID, value: its record as compact JSON). See docs/history.md.
 *
 * Every write is a check-and-set (`PUT /v1/var/:path?cas=<ModifyIndex>`; `cas=0`: only if there is
 * no variable yet, `varSetCASTxn` in `nomad/state/state_store_variables.go`): read the variable,
 * put the run's item in, drop the oldest items until Nomad's 64 KiB fit (lib/history/items.ts),
 * write at the index read. A 409 means another run wrote meanwhile: read again and redo, after a
 * jittered backoff, so two runs ending at once both keep their records. A run that remembers what
 * it wrote ({@link WrittenHistories}) starts its next write from that instead of a read: its final
 * record costs one request, not two, unless another writer came between (the 409 then reads).
 */
import { fitToLimit, type HistoryItems } from '../history/items';
import type { RunRecord } from '../history/record';
import { decodeRecord } from '../history/record-decode';
import { boundRecordErrors } from '../history/record-errors';
import type { HistoryPlace, HistoryRead, RunHistory, UnfinishedEnd } from '../history/run-history';
import { type Backoff, type RetryOptions, resolveBackoff, withRetry } from '../http/retry';
import type { NomadClient } from '../nomad/client';
import { UnexpectedResponseError } from '../nomad/errors';
import { StoreError } from './errors';
import { historyPath, placeOfPath } from './history-place';
import { RUN_HISTORY_PREFIX, type SharedLockLog } from './shared-lock-settings';

/**
 * Check-and-set rounds of one write: conflicts come from other runs of the same job (or fleets of
 * the namespace) writing at the same moment, a handful at most, so a dozen jittered rounds end them.
 */
const DEFAULT_CAS_BACKOFF: RetryOptions = { attempts: 12, baseDelayMs: 20, maxDelayMs: 1000 };

/** How the history store behaves. */
export interface NomadRunHistoryOptions {
  /** Where a token that may not write the history is reported (once). @default - not reported */
  readonly log?: SharedLockLog;
  /** Rounds of a write that meets other writers. @default 12 attempts, 20 ms doubling to 1 s, full jitter */
  readonly casRetries?: RetryOptions;
  /**
   * What this run last wrote to each history, shared by the stores of its steps: a write starts
   * from it instead of reading. @default - every write reads first
   */
  readonly written?: WrittenHistories | undefined;
}

/** A history variable's items as one read found them (or one write left them), and the index to write them back at. */
export interface ReadItems {
  readonly items: HistoryItems;
  readonly index: number;
}

/**
 * What one run last wrote to each history it writes (key: namespace and path) and the index
 * Nomad answered the write with. Only the run's own writes set it, so when the index still holds
 * the items are exactly Nomad's; when another writer came between, the checked write is refused
 * (409) and that round reads.
 */
export type WrittenHistories = Map<string, ReadItems>;

/** Every round of a write lost to another writer: the history is busier than the rounds allow. */
export class RunHistoryConflictError extends StoreError {}

/** A round lost to another writer (Nomad's 409), to try again. */
class CasConflict extends Error {}

/** The run history in Nomad variables (see the file comment). */
export class NomadRunHistory implements RunHistory {
  private readonly backoff: Backoff;
  /** The token may not write the history: said once, then no more attempts. */
  private denied = false;

  public constructor(
    private readonly nomad: NomadClient,
    private readonly options: NomadRunHistoryOptions = {},
  ) {
    this.backoff = resolveBackoff(options.casRetries ?? DEFAULT_CAS_BACKOFF);
  }

  public async put(place: HistoryPlace, record: RunRecord): Promise<void> {
    await this.update(place, (items) => {
      const fitted = fitToLimit(items, record);
      if (fitted.written !== undefined) return fitted.items;
      this.options.log?.warn(
        `Restart history not recorded: run "${record.runId}"'s record alone is over Nomad's 64 KiB limit for a variable`,
        { namespace: place.namespace, path: historyPath(place) },
      );
      return undefined;
    });
  }

  public async endUnfinished(place: HistoryPlace, runId: string, end: UnfinishedEnd): Promise<boolean> {
    let ended = false;
    await this.update(place, (items) => {
      const value = items[runId];
      const record = value === undefined ? undefined : decodeRecord(runId, value);
      ended = record?.outcome === 'running';
      if (record === undefined || !ended) return undefined;
      const final: RunRecord = {
        ...record,
        outcome: end.outcome,
        endedAt: end.endedAt,
        ...(end.errors === undefined ? {} : errorsOf(record, end.errors)),
      };
      return fitToLimit(items, final).items;
    });
    return ended && !this.denied;
  }

  public async read(place: HistoryPlace): Promise<HistoryRead> {
    const { items } = await this.readItems(place);
    const records: RunRecord[] = [];
    let unreadable = 0;
    for (const [runId, value] of Object.entries(items)) {
      const record = decodeRecord(runId, value);
      if (record === undefined) unreadable++;
      else records.push(record);
    }
    records.sort((a, b) => b.startedAt - a.startedAt);
    return { records, unreadable };
  }

  public async places(namespace: string): Promise<HistoryPlace[]> {
    const variables = await this.nomad.variables().list(RUN_HISTORY_PREFIX, { namespace });
    const places: HistoryPlace[] = [];
    for (const variable of variables) {
      const place = placeOfPath(variable.Namespace ?? namespace, variable.Path);
      if (place === undefined) continue;
      if ('fleets' in place || place.jobId !== undefined) {
        places.push(place);
        continue;
      }
      // A job ID too long for a path: only its records name it.
      const jobId = await this.jobIdIn(place.namespace, variable.Path);
      if (jobId !== undefined) places.push({ namespace: place.namespace, jobId });
    }
    return places;
  }

  /** The job ID the records at `path` name, if any is readable. */
  private async jobIdIn(namespace: string, path: string): Promise<string | undefined> {
    const variable = await this.nomad.variables().read(path, { namespace });
    for (const [runId, value] of Object.entries(variable?.Items ?? {})) {
      const record = decodeRecord(runId, value);
      if (record !== undefined && record.kind === 'job') return record.jobId;
    }
    return undefined;
  }

  /** `place`'s items and the index to write at (0: no variable yet, for a write only if absent). */
  private async readItems(place: HistoryPlace): Promise<ReadItems> {
    const variable = await this.nomad.variables().read(historyPath(place), { namespace: place.namespace });
    return { items: variable?.Items ?? {}, index: variable?.ModifyIndex ?? 0 };
  }

  /**
   * Reads `place`'s items, writes what `change` makes of them (nothing when it answers
   * `undefined`) at the index read, and does it all again when another writer came first.
   * @throws RunHistoryConflictError when every round was lost
   */
  private async update(
    place: HistoryPlace,
    change: (items: HistoryItems) => Record<string, string> | undefined,
  ): Promise<void> {
    if (this.denied) return;
    const path = historyPath(place);
    const memory = this.options.written;
    const key = `${place.namespace}/${path}`;
    // The first round only: a round after a 409 reads what the other writer left.
    let known = memory?.get(key);
    const round = async (): Promise<void> => {
      const { items, index } = known ?? (await this.readItems(place));
      known = undefined;
      const next = change(items);
      // Nomad refuses a variable without items: nothing fits, so nothing is written.
      if (next === undefined || Object.keys(next).length === 0) return;
      const written = await this.nomad
        .variables()
        .checkedWrite(path, next, index, { namespace: place.namespace });
      if (written === undefined) throw new CasConflict();
      if (written.ModifyIndex === undefined) memory?.delete(key);
      else memory?.set(key, { items: next, index: written.ModifyIndex });
    };
    try {
      // No abort signal: a history write is short, and the run waits for it before it ends.
      await withRetry(
        round,
        (err) => err instanceof CasConflict,
        this.backoff,
        undefined,
        () => new CasConflict(),
      );
    } catch (err) {
      if (err instanceof CasConflict)
        throw new RunHistoryConflictError(
          `The restart history "${path}" in namespace "${place.namespace}" kept changing: ${this.backoff.attempts} writes lost to other runs`,
          { cause: err },
        );
      if (!(err instanceof UnexpectedResponseError) || err.statusCode !== 403) throw err;
      this.denied = true;
      this.options.log?.warn(
        `Restart history not recorded: the token needs the variables capabilities "read" and "write" on path "${RUN_HISTORY_PREFIX}*"`,
        { namespace: place.namespace, path },
      );
    }
  }
}

/** `record`'s errors with `more` after them, kept within the record's bounds. */
function errorsOf(record: RunRecord, more: readonly string[]): Pick<RunRecord, 'errors' | 'omittedErrors'> {
  return boundRecordErrors([...record.errors, ...more], record.omittedErrors);
}
