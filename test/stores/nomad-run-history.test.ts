/**
 * The run history in Nomad (`nomad-restart/history/<job>`, one item per run) against the simulator
 * over HTTP with ACLs on: runs write with a token holding exactly the README's policy, readers read
 * with the README's reader policy. 1,000 runs recorded one after another stay within Nomad's 64 KiB
 * (the simulator refuses more, as Nomad does), the newest kept; two writers racing lose nothing but
 * the oldest records, which every version of the variable shows; a token without the history
 * capability is warned once and the run goes on.
 */
import { encodeRecord, type HistoryItems, itemsSize } from '../../lib/history/items';
import { MAX_VARIABLE_SIZE, type RunRecord } from '../../lib/history/record';
import type { HistoryPlace } from '../../lib/history/run-history';
import { NomadRunHistory, RunHistoryConflictError } from '../../lib/stores';
import { FLEET_HISTORY_PATH, runHistoryPath } from '../../lib/stores/shared-lock-settings';
import type { AclTokenSpec } from '../../sim/index';
import {
  HISTORY_READER_TOKEN,
  MANAGEMENT_TOKEN,
  OPERATOR_TOKEN,
  readmeHistoryReaderToken,
  readmePolicyToken,
} from '../fixtures/readme-policy';
import { provisionalRecord, runIdOf, runRecord } from '../fixtures/run-records';
import { simulatorPerTest } from './helpers/simulator-per-test';

const WEB: HistoryPlace = { namespace: 'default', jobId: 'web' };
/** The README's run policy less its history line: a policy from before the history. */
const NO_HISTORY = 'no-history-secret';

const { running, clientAs, log, warned } = simulatorPerTest(() => {
  const run = readmePolicyToken(['default', 'prod']);
  const { 'nomad-restart/history/*': _history, ...withoutHistory } = run.variables?.['default'] ?? {};
  const noHistory: AclTokenSpec = { ...run, secret: NO_HISTORY, variables: { default: withoutHistory } };
  return {
    namespaces: ['prod'],
    nodes: [],
    jobs: [],
    acl: {
      enabled: true,
      tokens: [
        run,
        readmeHistoryReaderToken(['default', 'prod']),
        noHistory,
        { secret: MANAGEMENT_TOKEN, management: true },
      ],
    },
  };
});

/** The history store through `token` (the README's run policy by default). */
function historyAs(token = OPERATOR_TOKEN): NomadRunHistory {
  return new NomadRunHistory(clientAs(token), { log });
}

/** The job's history variable's items as Nomad holds them (no token involved). */
const itemsOf = (namespace = 'default', path = runHistoryPath('web')): HistoryItems =>
  running().control.state().variable(namespace, path)?.items ?? {};

describe('NomadRunHistory with the README’s policies', () => {
  it('replaces a run’s provisional record with its final one, and reads records newest first', async () => {
    // Arrange
    const history = historyAs();
    await history.put(WEB, runRecord(1));
    await history.put(WEB, provisionalRecord(2));

    // Act
    await history.put(WEB, runRecord(2, { outcome: 'canceled', stoppedBy: 'bob@laptop-2 (terminal)' }));
    const read = await historyAs(HISTORY_READER_TOKEN).read(WEB);

    // Assert
    expect(read).toEqual({
      records: [runRecord(2, { outcome: 'canceled', stoppedBy: 'bob@laptop-2 (terminal)' }), runRecord(1)],
      unreadable: 0,
    });
    expect(Object.keys(itemsOf()).sort()).toEqual([runIdOf(1), runIdOf(2)]);
  });

  it('keeps 1,000 runs recorded one after another within Nomad’s limit, the newest kept', async () => {
    // Arrange
    const history = historyAs();

    // Act
    for (let n = 0; n < 1000; n++) await history.put(WEB, runRecord(n));

    // Assert: within the limit (the simulator refuses more, as Nomad), and not one more run fits
    const items = itemsOf();
    const kept = Object.keys(items).sort();
    expect(itemsSize(items)).toBeLessThanOrEqual(MAX_VARIABLE_SIZE);
    const nextOldest = runRecord(1000 - kept.length - 1);
    expect(itemsSize({ ...items, [nextOldest.runId]: encodeRecord(nextOldest) })).toBeGreaterThan(
      MAX_VARIABLE_SIZE,
    );
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => runIdOf(1000 - kept.length + i)));
    const read = await historyAs(HISTORY_READER_TOKEN).read(WEB);
    expect(read.records.map((r) => r.runId)).toEqual([...kept].reverse());
  }, 120_000);

  it('loses nothing between two writers racing but the oldest records, dropped to fit', async () => {
    // Arrange: every version of the variable, as Nomad's state holds it after each write
    const versions: HistoryItems[] = [];
    void running().control.waitFor((state) => {
      const items = state.variable('default', runHistoryPath('web'))?.items;
      const last = versions.at(-1);
      if (items !== undefined && JSON.stringify(items) !== JSON.stringify(last)) versions.push(items);
      return false;
    }, Number.POSITIVE_INFINITY);
    const writers = [historyAs(), historyAs()];
    const startedAt = new Map<string, number>();
    const write = async (writer: NomadRunHistory, first: number) => {
      for (let i = 0; i < 150; i++) {
        const record = runRecord(first + 2 * i);
        startedAt.set(record.runId, record.startedAt);
        await writer.put(WEB, record);
      }
    };

    // Act
    await Promise.all(writers.map((writer, w) => write(writer, w)));

    // Assert: the writers did race (Nomad answered conflicts)...
    const conflicts = running()
      .control.requestLog()
      .filter((r) => r.method === 'PUT' && r.status === 409);
    expect(conflicts.length).toBeGreaterThan(0);
    // ...every version within the limit, each adding the one record written and dropping only the
    // oldest others, and only those that no longer fit...
    const dropped = new Set<string>();
    versions.forEach((next, i) => {
      const previous = versions[i - 1] ?? {};
      expect(itemsSize(next)).toBeLessThanOrEqual(MAX_VARIABLE_SIZE);
      const added = Object.keys(next).filter((id) => previous[id] === undefined);
      expect(added).toHaveLength(1);
      const removed = Object.keys(previous).filter((id) => next[id] === undefined);
      const keptOthers = Object.keys(next).filter((id) => id !== added[0]);
      const newestRemoved = Math.max(...removed.map((id) => startedAt.get(id) ?? 0));
      const oldestKept = Math.min(...keptOthers.map((id) => startedAt.get(id) ?? 0));
      if (removed.length > 0) {
        expect(newestRemoved).toBeLessThan(oldestKept);
        const newestRemovedId = removed.find((id) => startedAt.get(id) === newestRemoved) ?? '';
        expect(itemsSize({ ...next, [newestRemovedId]: previous[newestRemovedId] ?? '' })).toBeGreaterThan(
          MAX_VARIABLE_SIZE,
        );
      }
      for (const id of removed) dropped.add(id);
    });
    // ...so every record written is in the variable, or was dropped as oldest: none lost.
    const final = Object.keys(versions.at(-1) ?? {});
    expect(versions).toHaveLength(300);
    expect([...final, ...dropped].sort()).toEqual([...startedAt.keys()].sort());
    expect(final.filter((id) => dropped.has(id))).toEqual([]);
  }, 120_000);

  it('gives up after its rounds when another writer wins every one, naming the history', async () => {
    // Arrange: Nomad answers every write with a conflict
    running().control.injectFault({
      pathSuffix: runHistoryPath('web'),
      method: 'PUT',
      status: 409,
      body: '{}',
    });
    const client = clientAs(OPERATOR_TOKEN);
    const history = new NomadRunHistory(client, {
      casRetries: { attempts: 3, baseDelayMs: 1, maxDelayMs: 1 },
    });

    // Act
    const put = history.put(WEB, runRecord(1));

    // Assert
    await expect(put).rejects.toThrow(
      'The restart history "nomad-restart/history/web" in namespace "default" kept changing: 3 writes lost to other runs',
    );
    await expect(put).rejects.toBeInstanceOf(RunHistoryConflictError);
    expect(running().control.counters()['PUT /v1/var/:path']).toBe(3);
  });

  it('ends a provisional record once, and not a final one', async () => {
    // Arrange
    const history = historyAs();
    await history.put(WEB, provisionalRecord(1, { errors: ['one', 'two'] }));
    await history.put(WEB, runRecord(2));
    const end = {
      outcome: 'aborted',
      endedAt: runRecord(1).startedAt + 5000,
      errors: ['three', 'four'],
    } as const;

    // Act
    const ended = await history.endUnfinished(WEB, runIdOf(1), end);
    const again = await history.endUnfinished(WEB, runIdOf(1), { ...end, outcome: 'timed-out' });
    const final = await history.endUnfinished(WEB, runIdOf(2), end);
    const none = await history.endUnfinished(WEB, 'run-unknown', end);

    // Assert
    expect([ended, again, final, none]).toEqual([true, false, false, false]);
    const read = await history.read(WEB);
    expect(read.records).toEqual([
      runRecord(2),
      {
        ...provisionalRecord(1),
        outcome: 'aborted',
        endedAt: end.endedAt,
        errors: ['one', 'two', 'three'],
        omittedErrors: 1,
      },
    ]);
  });

  it('warns once when the token may not write the history, throws nothing, and writes nothing', async () => {
    // Arrange
    const history = historyAs(NO_HISTORY);

    // Act
    await history.put(WEB, provisionalRecord(1));
    await history.put(WEB, runRecord(1));
    const ended = await history.endUnfinished(WEB, runIdOf(1), { outcome: 'aborted', endedAt: 1 });

    // Assert
    expect(warned).toEqual([
      'Restart history not recorded: the token needs the variables capabilities "read" and "write" on path "nomad-restart/history/*"',
    ]);
    expect(ended).toBe(false);
    expect(running().control.state().variable('default', runHistoryPath('web'))).toBeUndefined();
  });

  it('counts items that are not a record as unreadable, and leaves them', async () => {
    // Arrange
    const manager = clientAs(MANAGEMENT_TOKEN);
    await manager.variables().write(runHistoryPath('web'), { 'by-hand': 'note', [runIdOf(1)]: '{}' });
    const history = historyAs();

    // Act
    await history.put(WEB, runRecord(2));
    const read = await historyAs(HISTORY_READER_TOKEN).read(WEB);

    // Assert
    expect(read).toEqual({ records: [runRecord(2)], unreadable: 2 });
    expect(itemsOf()['by-hand']).toBe('note');
  });

  it('lists every history in a namespace, or in all, with the reader’s policy', async () => {
    // Arrange: a job ID that needs encoding, one too long for a path, and fleet runs
    const long = `batch-${'x'.repeat(150)}`;
    const history = historyAs();
    const fleetRecord: RunRecord = runRecord(4, { kind: 'fleet', jobId: '', namespace: 'prod' });
    await history.put(WEB, runRecord(1));
    await history.put({ namespace: 'prod', jobId: 'api/v2 é' }, runRecord(2, { jobId: 'api/v2 é' }));
    await history.put({ namespace: 'prod', jobId: long }, runRecord(3, { jobId: long, namespace: 'prod' }));
    await history.put({ namespace: 'prod', fleets: true }, fleetRecord);
    const reader = historyAs(HISTORY_READER_TOKEN);

    // Act
    const inDefault = await reader.places('default');
    const everywhere = await reader.places('*');

    // Assert
    expect(inDefault).toEqual([WEB]);
    expect(everywhere).toEqual(
      expect.arrayContaining([
        WEB,
        { namespace: 'prod', jobId: 'api/v2 é' },
        { namespace: 'prod', jobId: long },
        { namespace: 'prod', fleets: true },
      ]),
    );
    expect(everywhere).toHaveLength(4);
    expect(itemsOf('prod', FLEET_HISTORY_PATH)).toEqual({
      [fleetRecord.runId]: encodeRecord(fleetRecord),
    });
  });
});
