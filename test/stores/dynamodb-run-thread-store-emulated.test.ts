/**
 * The run-thread store against a DynamoDB emulator (dynalite over HTTP on 127.0.0.1, the deployed
 * approvals table), so that real conditional writes decide which notifier edits a run's live
 * message: of racing claims one wins, none within the interval or before a `Retry-After`, and a
 * thread read back holds what was recorded.
 */
import { DynamoDbRunThreadStore } from '../../lib/stores/dynamodb-run-thread-store';
import { emulatedTable } from './helpers/dynamodb-emulator';

const RUN = 'arn:aws:states:us-east-1:123456789012:execution:NomadRestart-Restart:run-1';
const T0 = 1_800_000_000_000;
const emulated = emulatedTable('ApprovalsTable');

describe('DynamoDbRunThreadStore on a DynamoDB emulator', () => {
  it('reads back the progress, the live message and the end recorded', async () => {
    // Arrange
    const store = new DynamoDbRunThreadStore(emulated.db.client, emulated.table);

    // Act
    await store.recordProgress(RUN, { batchesDone: 1 }, 1_900_000_000);
    await store.recordMessage(RUN, 'slack', { channel: 'C1', ts: '1.000100', shows: 'a' });
    await store.recordProgress(RUN, { batchesDone: 2 }, 1_900_000_000);
    await store.recordEnd(RUN, 'succeeded');
    const thread = await store.get(RUN);

    // Assert: a later progress record keeps the message recorded before it.
    expect(thread).toEqual({
      runId: RUN,
      progress: { batchesDone: 2 },
      messages: { slack: { channel: 'C1', ts: '1.000100', shows: 'a' } },
      endedAs: 'succeeded',
    });
    expect(await store.get('arn:aws:states:us-east-1:123456789012:execution:NomadRestart-Restart:none')).toBe(
      undefined,
    );
  });

  it('lets one of racing claims edit, none within the interval, none before a Retry-After', async () => {
    // Arrange: one client per notifier, as separate invocations would have.
    await new DynamoDbRunThreadStore(emulated.db.client, emulated.table).recordProgress(
      RUN,
      {},
      1_900_000_000,
    );
    const notifiers = Array.from(
      { length: 5 },
      () => new DynamoDbRunThreadStore(emulated.db.newClient(), emulated.table),
    );
    const store = notifiers[0] as DynamoDbRunThreadStore;

    // Act
    const racing = await Promise.all(notifiers.map((n) => n.claimEdit(RUN, T0, 30_000)));
    const within = await store.claimEdit(RUN, T0 + 29_999, 30_000);
    const after = await store.claimEdit(RUN, T0 + 30_000, 30_000);
    await store.deferEdits(RUN, T0 + 90_000);
    const deferred = await store.claimEdit(RUN, T0 + 80_000, 30_000);
    const past = await store.claimEdit(RUN, T0 + 90_000, 30_000);

    // Assert
    expect(racing.filter(Boolean)).toHaveLength(1);
    expect([within, after, deferred, past]).toEqual([false, true, false, true]);
    expect(await store.claimEdit('no-such-run', T0, 30_000)).toBe(false);
  });
});
