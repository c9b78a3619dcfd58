/**
 * The DynamoDB job lock against a DynamoDB emulator (dynalite over HTTP on 127.0.0.1), so that
 * real conditional writes, not a mock's scripted answers, decide who holds a job.
 */
import { DynamoDbJobLock, LockHeldError } from '../../lib/stores';
import {
  type DynamoDbEmulator,
  EMULATOR_START_TIMEOUT_MS,
  startDynamoDbEmulator,
} from './helpers/dynamodb-emulator';

const key = { namespace: 'default', jobId: 'web' };
const run = (n: number) => `arn:aws:states:us-east-1:123456789012:execution:m:run-${n}`;

describe('DynamoDbJobLock on a DynamoDB emulator', () => {
  let db: DynamoDbEmulator;
  let table: string;

  beforeAll(async () => {
    db = await startDynamoDbEmulator();
  }, EMULATOR_START_TIMEOUT_MS);
  afterAll(async () => db.close());
  beforeEach(async () => {
    table = await db.createTable('LockTable');
  });

  it('lets exactly one of many runs racing for a free job take it', async () => {
    // Arrange: each run with a client of its own, as separate Lambdas would be.
    const runs = Array.from({ length: 8 }, (_, i) => ({
      owner: run(i),
      lock: new DynamoDbJobLock(db.newClient(), table),
    }));

    // Act
    const results = await Promise.allSettled(runs.map((r) => r.lock.acquire(key, r.owner, 3600)));

    // Assert
    const winners = results.filter((r) => r.status === 'fulfilled');
    const losers = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(7);
    for (const reason of losers) expect(reason).toBeInstanceOf(LockHeldError);
  });

  it('never releases a lock for a run that does not hold it', async () => {
    // Arrange
    const lock = new DynamoDbJobLock(db.client, table);
    await lock.acquire(key, run(1), 3600);

    // Act
    const releasedByOther = await lock.release(key, run(2));
    const releasedByOwner = await lock.release(key, run(1));

    // Assert
    expect(releasedByOther).toBe(false);
    expect(releasedByOwner).toBe(true);
    await expect(lock.acquire(key, run(2), 3600)).resolves.toBeUndefined();
  });
});
