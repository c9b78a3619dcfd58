/**
 * The DynamoDB job lock against a DynamoDB emulator (dynalite over HTTP on 127.0.0.1), so that
 * real conditional writes, not a mock's scripted answers, decide who holds a job.
 */
import { DynamoDbJobLock, LockHeldError } from '../../lib/stores';
import { emulatedTable } from './helpers/dynamodb-emulator';

const key = { namespace: 'default', jobId: 'web' };
const run = (n: number) => `arn:aws:states:us-east-1:123456789012:execution:m:run-${n}`;

describe('DynamoDbJobLock on a DynamoDB emulator', () => {
  const emulated = emulatedTable('LockTable');

  it('lets exactly one of many runs racing for a free job take it', async () => {
    // Arrange: each run with a client of its own, as separate Lambdas would be.
    const runs = Array.from({ length: 8 }, (_, i) => ({
      owner: run(i),
      lock: new DynamoDbJobLock(emulated.db.newClient(), emulated.table),
    }));

    // Act
    const results = await Promise.allSettled(
      runs.map((r) => r.lock.acquire(key, { owner: r.owner, ttlSeconds: 3600 })),
    );

    // Assert
    const winners = results.filter((r) => r.status === 'fulfilled');
    const losers = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(7);
    for (const reason of losers) expect(reason).toBeInstanceOf(LockHeldError);
  });

  it('tells the loser who holds the job, read back when the failed condition carries no item', async () => {
    // Arrange: the emulator, like some DynamoDB-compatible services, ignores ReturnValuesOnConditionCheckFailure.
    await new DynamoDbJobLock(emulated.db.newClient(), emulated.table).acquire(key, {
      owner: run(1),
      ttlSeconds: 3600,
    });

    // Act
    const lost = await new DynamoDbJobLock(emulated.db.newClient(), emulated.table)
      .acquire(key, { owner: run(2), ttlSeconds: 3600 })
      .catch((e) => e);

    // Assert
    expect(lost).toBeInstanceOf(LockHeldError);
    expect((lost as LockHeldError).holder).toBe(run(1));
  });

  it('keeps a cancel request across the holder refreshing its lease, and drops it on a takeover', async () => {
    // Arrange
    const lock = new DynamoDbJobLock(emulated.db.client, emulated.table);
    await lock.acquire(key, { owner: run(1), ttlSeconds: 60 });
    await lock.requestCancel(key, run(1));

    // Act
    await lock.acquire(key, { owner: run(1), ttlSeconds: 3600 });
    const keptAfterRefresh = await lock.isCancelRequested(key, run(1));
    await lock.takeOver(key, { owner: run(2), ttlSeconds: 3600 }, run(1));

    // Assert
    expect(keptAfterRefresh).toBe(true);
    expect(await lock.isCancelRequested(key, run(2))).toBe(false);
  });

  it('takes a job over only from the run named as its previous holder', async () => {
    // Arrange
    const lock = new DynamoDbJobLock(emulated.db.client, emulated.table);
    await lock.acquire(key, { owner: run(1), ttlSeconds: -60 });

    // Act
    const fromWrongHolder = await lock
      .takeOver(key, { owner: run(3), ttlSeconds: 3600 }, run(2))
      .catch((e) => e);
    await lock.takeOver(key, { owner: run(2), ttlSeconds: 3600 }, run(1));

    // Assert
    expect(fromWrongHolder).toBeInstanceOf(LockHeldError);
    expect((fromWrongHolder as LockHeldError).holder).toBe(run(1));
    await expect(lock.release(key, run(1))).resolves.toBeUndefined();
    await expect(lock.release(key, run(2))).resolves.toEqual({ key });
  });

  it('never releases a lock for a run that does not hold it', async () => {
    // Arrange
    const lock = new DynamoDbJobLock(emulated.db.client, emulated.table);
    await lock.acquire(key, { owner: run(1), ttlSeconds: 3600 });

    // Act
    const releasedByOther = await lock.release(key, run(2));
    const releasedByOwner = await lock.release(key, run(1));

    // Assert
    expect(releasedByOther).toBeUndefined();
    expect(releasedByOwner).toEqual({ key });
    await expect(lock.acquire(key, { owner: run(2), ttlSeconds: 3600 })).resolves.toEqual({ key });
  });

  it('keeps the shared lock’s ID for its holder: read back, refreshed, released and taken over with it', async () => {
    // Arrange
    const lock = new DynamoDbJobLock(emulated.db.client, emulated.table);
    await lock.acquire(key, { owner: run(1), ttlSeconds: 3600 });

    // Act
    const byOther = await lock.keepSharedLockId(key, run(2), 'id-2').catch((e: unknown) => e);
    await lock.keepSharedLockId(key, run(1), 'id-1');
    const refreshed = await lock.acquire(key, { owner: run(1), ttlSeconds: 3600 });
    const extended = await lock.extend(key, { owner: run(1), ttlSeconds: 3600 });
    const notHeld = await lock.extend(key, { owner: run(2), ttlSeconds: 3600 });
    const previous = await lock.takeOver(key, { owner: run(2), ttlSeconds: 3600 }, run(1));
    await lock.keepSharedLockId(key, run(2), 'id-2');
    await lock.forgetSharedLockId(key, run(2));
    const released = await lock.release(key, run(2));

    // Assert
    expect(byOther).toBeInstanceOf(LockHeldError);
    expect(refreshed).toEqual({ key, sharedLockId: 'id-1' });
    expect(extended).toEqual({ key, sharedLockId: 'id-1' });
    expect(notHeld).toBeUndefined();
    expect(previous).toEqual({ key, sharedLockId: 'id-1' });
    expect(released).toEqual({ key });
  });

  it('finds every job a dead run holds through the owner index, and releases none of them', async () => {
    // Arrange
    const lock = new DynamoDbJobLock(emulated.db.client, emulated.table);
    const api = { namespace: 'prod', jobId: 'api' };
    const db = { namespace: 'prod', jobId: 'db' };
    await lock.acquire(key, { owner: run(1), ttlSeconds: 3600 });
    await lock.acquire(api, { owner: run(1), ttlSeconds: 3600 });
    await lock.keepSharedLockId(api, run(1), 'id-api');
    await lock.acquire(db, { owner: run(2), ttlSeconds: 3600 });

    // Act
    const keys = await lock.keysHeldBy(run(1));

    // Assert: the cleanup frees each job's shared lock with the ID still kept, then releases.
    expect(keys).toEqual(expect.arrayContaining([key, api]));
    expect(keys).toHaveLength(2);
    await expect(lock.held(api, run(1))).resolves.toEqual({ key: api, sharedLockId: 'id-api' });
  });
  it('records a control request for its holder only, reads it back, and clears it unless a newer one came', async () => {
    // Arrange
    const lock = new DynamoDbJobLock(emulated.db.client, emulated.table);
    const pause = { verb: 'pause' as const, requestedBy: 'U0AAAAAAA', via: 'slack' as const, at: 1_000 };
    const stop = { ...pause, verb: 'stop' as const, at: 2_000 };
    await lock.acquire(key, { owner: run(1), ttlSeconds: 3600 });

    // Act
    const forAnother = await lock.requestControl(key, run(2), pause);
    const forHolder = await lock.requestControl(key, run(1), pause);
    const read = await lock.controlRequest(key, run(1));
    await lock.requestControl(key, run(1), stop);
    await lock.clearControlRequest(key, run(1), pause);
    const afterStaleClear = await lock.controlRequest(key, run(1));
    await lock.clearControlRequest(key, run(1), stop);

    // Assert
    expect([forAnother, forHolder]).toEqual([false, true]);
    expect(read).toEqual(pause);
    expect(await lock.controlRequest(key, run(2))).toBeUndefined();
    expect(afterStaleClear).toEqual(stop);
    expect(await lock.controlRequest(key, run(1))).toBeUndefined();
  });
});
