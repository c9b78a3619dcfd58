/**
 * A run's writes to its job's history in Nomad, remembered between its steps (`WrittenHistories`):
 * the final record is written at the index the provisional write got, without reading the history
 * again (a read, a write, a write: three requests a run); when another run wrote in between, Nomad
 * refuses the checked write (409), and the round reads and keeps both runs' records. Against the
 * simulator over HTTP with ACLs on and a token holding exactly the README's run policy.
 */
import type { HistoryPlace } from '../../lib/history/run-history';
import { NomadRunHistory, type WrittenHistories } from '../../lib/stores/nomad-run-history';
import { runHistoryPath } from '../../lib/stores/shared-lock-settings';
import { OPERATOR_TOKEN, readmePolicyToken } from '../fixtures/readme-policy';
import { provisionalRecord, runIdOf, runRecord } from '../fixtures/run-records';
import { simulatorPerTest } from './helpers/simulator-per-test';

const WEB: HistoryPlace = { namespace: 'default', jobId: 'web' };

const { running, clientAs, log } = simulatorPerTest(() => ({
  nodes: [],
  jobs: [],
  acl: { enabled: true, tokens: [readmePolicyToken(['default'])] },
}));

/** A history store of one step of a run whose steps share `written`. */
const stepStore = (written: WrittenHistories) =>
  new NomadRunHistory(clientAs(OPERATOR_TOKEN), { log, written });

/** The history requests since the counters were reset, with Nomad's status. */
const historyRequests = () =>
  running()
    .control.requestLog()
    .filter((entry) => entry.path === `/v1/var/${runHistoryPath('web')}`)
    .map((entry) => `${entry.method} ${entry.status}`);

/** The job's history items as Nomad holds them. */
const itemIds = () =>
  Object.keys(running().control.state().variable('default', runHistoryPath('web'))?.items ?? {}).sort();

describe('NomadRunHistory remembering what its run wrote', () => {
  it('writes the final record at the index of the provisional one, without a second read', async () => {
    // Arrange: the provisional record, written by one step ("Lock job").
    const written: WrittenHistories = new Map();
    await stepStore(written).put(WEB, provisionalRecord(1));

    // Act: the final one, by another step's store ("Finish restart").
    await stepStore(written).put(WEB, runRecord(1));

    // Assert
    expect(historyRequests()).toEqual(['GET 404', 'PUT 200', 'PUT 200']);
    const records = (await stepStore(new Map()).read(WEB)).records;
    expect(records).toEqual([runRecord(1)]);
  });

  it('reads again when another run wrote in between, and keeps both records', async () => {
    // Arrange: run 1 holds the job's history at an index another run then moves on.
    const written: WrittenHistories = new Map();
    await stepStore(written).put(WEB, provisionalRecord(1));
    await stepStore(new Map()).put(WEB, runRecord(2));

    // Act
    await stepStore(written).put(WEB, runRecord(1));

    // Assert: the refused write (409), then a read and the write at the index read.
    expect(historyRequests()).toEqual([
      'GET 404',
      'PUT 200',
      'GET 200',
      'PUT 200',
      'PUT 409',
      'GET 200',
      'PUT 200',
    ]);
    expect(itemIds()).toEqual([runIdOf(1), runIdOf(2)]);
    const records = (await stepStore(new Map()).read(WEB)).records;
    expect(records).toEqual(expect.arrayContaining([runRecord(1), runRecord(2)]));
  });
});
