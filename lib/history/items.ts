/**
 * A history variable's items (lib/stores/nomad-run-history.ts): one item per run, the key its run
 * ID and the value its record as compact JSON (read back by record-decode.ts), and the trimming that keeps the variable within
 * Nomad's size limit ({@link MAX_VARIABLE_SIZE}) by dropping the oldest runs first. Pure: the
 * store reads, calls {@link fitToLimit}, and writes what it answers.
 */
import { MAX_VARIABLE_SIZE, type RunRecord } from './record';

/** A variable's items, as Nomad holds them: strings only. */
export type HistoryItems = Readonly<Record<string, string>>;

/** The item value of `record`: compact JSON (every byte counts against Nomad's limit). */
export function encodeRecord(record: RunRecord): string {
  return JSON.stringify(record);
}

/**
 * The items' size as Nomad counts it against {@link MAX_VARIABLE_SIZE}: the sum of every key's and
 * value's length in UTF-8 bytes (`VariableItems.Size` in `nomad/structs/variables.go` sums Go's
 * `len(string)`, which is bytes, not characters).
 */
export function itemsSize(items: HistoryItems): number {
  let size = 0;
  for (const [key, value] of Object.entries(items)) size += Buffer.byteLength(key) + Buffer.byteLength(value);
  return size;
}

/** What {@link fitToLimit} made of the items and the record to add. */
export interface FittedItems {
  /** The items to write: the record's (when it fits) and the newest others that fit beside it. */
  readonly items: Record<string, string>;
  /** Run IDs of the items left out to make room, oldest first. */
  readonly dropped: readonly string[];
  /**
   * The record as written: `record` itself, or a copy with its errors (then its reason) cut when
   * it alone did not fit; `undefined` when even that did not fit (it is not written).
   */
  readonly written: RunRecord | undefined;
}

/**
 * Adds `record`'s item to `items` (replacing the run's earlier item: its provisional record) and
 * drops the oldest other items, by `startedAt`, until the whole is within `limit` bytes. The record
 * being written is never dropped for older ones; only when it alone is too big are its errors,
 * then its reason, cut. An item that is not a readable record sorts as oldest, unless it carries a
 * numeric `startedAt` (a newer version's record): it is the least useful to keep.
 */
export function fitToLimit(items: HistoryItems, record: RunRecord, limit = MAX_VARIABLE_SIZE): FittedItems {
  const written = shrinkToFit(record, limit);
  const others = Object.entries(items)
    .filter(([runId]) => runId !== record.runId)
    .map(([runId, value]) => ({ runId, value, startedAt: startedAtOf(value) }))
    // Newest first, so the items kept are a prefix; equal times by run ID, for a stable order.
    .sort((a, b) => b.startedAt - a.startedAt || (a.runId < b.runId ? 1 : a.runId > b.runId ? -1 : 0));
  const kept: Record<string, string> = {};
  let size = 0;
  if (written !== undefined) {
    kept[written.runId] = encodeRecord(written);
    size = itemsSize(kept);
  }
  const dropped: string[] = [];
  for (const item of others) {
    const itemSize = Buffer.byteLength(item.runId) + Buffer.byteLength(item.value);
    // Once one item does not fit, every older one goes too: the history keeps the newest runs.
    if (dropped.length === 0 && size + itemSize <= limit) {
      kept[item.runId] = item.value;
      size += itemSize;
    } else {
      dropped.push(item.runId);
    }
  }
  return { items: kept, dropped: dropped.reverse(), written };
}

/** `record`, or a copy cut until its item alone fits `limit`; `undefined` when nothing fits. */
function shrinkToFit(record: RunRecord, limit: number): RunRecord | undefined {
  const fits = (r: RunRecord) => itemsSize({ [r.runId]: encodeRecord(r) }) <= limit;
  if (fits(record)) return record;
  const withoutErrors: RunRecord = {
    ...record,
    errors: [],
    omittedErrors: record.omittedErrors + record.errors.length,
  };
  if (fits(withoutErrors)) return withoutErrors;
  const { reason: _reason, ...withoutReason } = withoutErrors;
  return fits(withoutReason) ? withoutReason : undefined;
}

/** The item's `startedAt` when its JSON carries a number there; else oldest of all. */
function startedAtOf(value: string): number {
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed === 'object' && parsed !== null && 'startedAt' in parsed) {
      const { startedAt } = parsed;
      if (typeof startedAt === 'number' && Number.isFinite(startedAt)) return startedAt;
    }
  } catch {
    // Not JSON (an item written by hand): the first to go.
  }
  return Number.NEGATIVE_INFINITY;
}
