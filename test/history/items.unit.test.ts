import { encodeRecord, fitToLimit, type HistoryItems, itemsSize } from '../../lib/history/items';
import { MAX_RECORD_ERRORS, MAX_VARIABLE_SIZE } from '../../lib/history/record';
import { provisionalRecord, runIdOf, runRecord } from '../fixtures/run-records';

/** `items` after run `n`'s record was written to them, as the store writes one run after another. */
function written(items: HistoryItems, n: number): { items: HistoryItems; dropped: readonly string[] } {
  const fitted = fitToLimit(items, runRecord(n));
  return { items: fitted.items, dropped: fitted.dropped };
}

describe('itemsSize', () => {
  it('counts keys and values in UTF-8 bytes, as Nomad’s VariableItems.Size', () => {
    // Arrange: é is 2 bytes, € 3, 😀 4 (two UTF-16 code units)
    const items = { é: '€', ab: '😀' };

    // Act
    const size = itemsSize(items);

    // Assert
    expect(size).toBe(2 + 3 + 2 + 4);
  });
});

describe('fitToLimit', () => {
  it('keeps 1,000 runs written one after another within 64 KiB, the newest kept and the oldest dropped in order', () => {
    // Arrange
    let items: HistoryItems = {};
    const dropped: string[] = [];

    // Act
    for (let n = 0; n < 1000; n++) {
      const next = written(items, n);
      items = next.items;
      dropped.push(...next.dropped);
    }

    // Assert: within the limit, and not one more run would fit
    const kept = Object.keys(items).sort();
    const size = itemsSize(items);
    expect(size).toBeLessThanOrEqual(MAX_VARIABLE_SIZE);
    const nextOldest = runIdOf(1000 - kept.length - 1);
    expect(size + nextOldest.length + encodeRecord(runRecord(1000 - kept.length - 1)).length).toBeGreaterThan(
      MAX_VARIABLE_SIZE,
    );
    // the kept runs are exactly the newest, the dropped exactly the others, oldest first
    expect(kept.length).toBeGreaterThan(100);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => runIdOf(1000 - kept.length + i)));
    expect(dropped).toEqual(Array.from({ length: 1000 - kept.length }, (_, i) => runIdOf(i)));
  });

  it('replaces the run’s provisional record with its final one', () => {
    // Arrange
    const items = fitToLimit({}, provisionalRecord(1)).items;

    // Act
    const fitted = fitToLimit(items, runRecord(1));

    // Assert
    expect(fitted.items).toEqual({ [runIdOf(1)]: encodeRecord(runRecord(1)) });
    expect(fitted.dropped).toEqual([]);
  });

  it('drops by start time, not by the order the items were written in', () => {
    // Arrange: run 5 ended (was written) before run 2 did; each item ~400 bytes, room for 3 in 1,300
    let items: HistoryItems = {};
    for (const n of [5, 2, 9]) items = fitToLimit(items, runRecord(n)).items;
    const limit = itemsSize(items) + 10;

    // Act
    const fitted = fitToLimit(items, runRecord(7), limit);

    // Assert
    expect(fitted.dropped).toEqual([runIdOf(2)]);
    expect(Object.keys(fitted.items).sort()).toEqual([runIdOf(5), runIdOf(7), runIdOf(9)]);
  });

  it('keeps the record being written even when it is older than every other', () => {
    // Arrange: room for two records
    let items: HistoryItems = {};
    for (const n of [8, 9]) items = fitToLimit(items, runRecord(n)).items;
    const limit = itemsSize(items) + 10;

    // Act: a run that started first ends last
    const fitted = fitToLimit(items, runRecord(1), limit);

    // Assert
    expect(Object.keys(fitted.items).sort()).toEqual([runIdOf(1), runIdOf(9)]);
    expect(fitted.dropped).toEqual([runIdOf(8)]);
  });

  it('drops items that are no record first, and a newer version’s record by its start time', () => {
    // Arrange
    const newer = JSON.stringify({ version: 2, runId: 'run-new', startedAt: runRecord(9).startedAt });
    const items = { 'by-hand': 'not json', 'run-new': newer, [runIdOf(3)]: encodeRecord(runRecord(3)) };
    const limit = itemsSize(items) + 20;

    // Act
    const fitted = fitToLimit(items, runRecord(10, { reason: 'x' }), limit);

    // Assert
    expect(fitted.dropped).toEqual(['by-hand', runIdOf(3)]);
    expect(Object.keys(fitted.items).sort()).toEqual([runIdOf(10), 'run-new']);
  });

  it('cuts the errors of a record that alone is over the limit, counting them as omitted', () => {
    // Arrange
    const errors = Array.from({ length: MAX_RECORD_ERRORS }, (_, i) => `error ${i} `.padEnd(300, 'x'));
    const record = runRecord(1, { errors, omittedErrors: 2 });
    const limit = itemsSize({ [record.runId]: encodeRecord({ ...record, errors: [] }) }) + 5;

    // Act
    const fitted = fitToLimit({ [runIdOf(0)]: encodeRecord(runRecord(0)) }, record, limit);

    // Assert
    expect(fitted.written).toEqual({ ...record, errors: [], omittedErrors: 2 + MAX_RECORD_ERRORS });
    expect(fitted.items).toEqual({ [record.runId]: encodeRecord(fitted.written ?? record) });
    expect(fitted.dropped).toEqual([runIdOf(0)]);
  });

  it('cuts the reason after the errors, and writes nothing when even that is over the limit', () => {
    // Arrange
    const record = runRecord(1, { errors: ['boom'] });
    const { reason: _reason, ...bare } = { ...record, errors: [], omittedErrors: 1 };
    const bareSize = itemsSize({ [record.runId]: encodeRecord(bare) });

    // Act
    const cut = fitToLimit({}, record, bareSize);
    const none = fitToLimit({ [runIdOf(0)]: 'kept' }, record, bareSize - 1);

    // Assert
    expect(cut.written).toEqual(bare);
    expect(none.written).toBeUndefined();
    expect(none.items).toEqual({ [runIdOf(0)]: 'kept' });
  });
});
