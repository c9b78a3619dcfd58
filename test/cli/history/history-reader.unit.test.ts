import type { HistoryLine } from '../../../lib/cli/history/history-args';
import { matchesPrefix, readHistory } from '../../../lib/cli/history/history-reader';
import type { RunRecord } from '../../../lib/history/record';
import type { HistoryPlace, HistoryRead, RunHistory } from '../../../lib/history/run-history';
import { runRecord } from '../../fixtures/run-records';

/** A history store over fixed records, keyed as places print; counts the reads. */
function fakeHistory(byPlace: Record<string, RunRecord[]>): RunHistory & { reads: string[] } {
  const keyOf = (p: HistoryPlace) => `${p.namespace}/${'jobId' in p ? p.jobId : '~fleets'}`;
  const reads: string[] = [];
  return {
    reads,
    put: async () => undefined,
    endUnfinished: async () => false,
    read: async (place): Promise<HistoryRead> => {
      reads.push(keyOf(place));
      return { records: byPlace[keyOf(place)] ?? [], unreadable: keyOf(place) === 'prod/api' ? 1 : 0 };
    },
    places: async (namespace) =>
      Object.keys(byPlace)
        .map((key) => key.split('/') as [string, string])
        .filter(([ns]) => namespace === '*' || ns === namespace)
        .map(([ns, job]) =>
          job === '~fleets' ? { namespace: ns, fleets: true } : { namespace: ns, jobId: job },
        ),
  };
}

const line = (overrides: Partial<HistoryLine>): HistoryLine => ({
  target: { kind: 'all' },
  namespace: 'default',
  count: 20,
  output: 'text',
  nomad: { address: 'http://127.0.0.1:4646' } as HistoryLine['nomad'],
  ...overrides,
});

const at = (minutes: number, jobId: string, namespace = 'default') =>
  runRecord(minutes, { runId: `run-${namespace}-${jobId}-${minutes}`, jobId, namespace });

describe('readHistory', () => {
  it('merges every history of the namespace, fleets included, newest first', async () => {
    // Arrange
    const fleet = runRecord(9, { kind: 'fleet', jobId: '', runId: 'fleet-9' });
    const history = fakeHistory({
      'default/web': [at(5, 'web'), at(1, 'web')],
      'default/api': [at(7, 'api'), at(3, 'api')],
      'default/~fleets': [fleet],
      'prod/api': [at(8, 'api', 'prod')],
    });

    // Act
    const read = await readHistory(history, line({}));

    // Assert
    expect(read.records.map((r) => r.runId)).toEqual([
      'fleet-9',
      'run-default-api-7',
      'run-default-web-5',
      'run-default-api-3',
      'run-default-web-1',
    ]);
    expect(read.unreadable).toBe(0);
  });

  it('reads one job’s history in every namespace with "*", and counts unreadable items', async () => {
    // Arrange
    const history = fakeHistory({
      'default/api': [at(7, 'api')],
      'default/web': [at(5, 'web')],
      'prod/api': [at(8, 'api', 'prod')],
    });

    // Act
    const read = await readHistory(history, line({ namespace: '*', target: { kind: 'job', jobId: 'api' } }));

    // Assert
    expect(read.records.map((r) => r.runId)).toEqual(['run-prod-api-8', 'run-default-api-7']);
    expect(history.reads.sort()).toEqual(['default/api', 'prod/api']);
    expect(read.unreadable).toBe(1);
  });
});

describe('matchesPrefix', () => {
  it.each([
    { prefix: '0b7f', expected: true },
    { prefix: 'arn:aws:states:local', expected: true },
    { prefix: '0b7e', expected: false },
  ])('says $expected for $prefix', ({ prefix, expected }) => {
    // Arrange
    const record = runRecord(0, {
      runId: 'arn:aws:states:local:000000000000:execution:nomad-restart:0b7f3c2e-1111-4a4a-9b9b-000000000001',
    });

    // Act, Assert
    expect(matchesPrefix(record, prefix)).toBe(expected);
  });
});
