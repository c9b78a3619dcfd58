/**
 * #19 item 11, on the in-memory lock the local engine uses (the DynamoDB lock's requests are
 * checked in test/stores/dynamodb-job-lock.unit.test.ts): a lease refresh keeps a cancel written
 * after the flag was read, and a cancel names its run, so a late one never stops the next run.
 */
import { MemoryJobLock } from '../../lib/stores';

const key = { namespace: 'default', jobId: 'web' };

describe('the job lock’s cancel flag', () => {
  it('survives a lease refresh that comes after it', async () => {
    // Arrange: Check deployments reads the flag (none yet), a cancel lands, then the refresh.
    const lock = new MemoryJobLock();
    await lock.acquire(key, { owner: 'run-1', ttlSeconds: 60 });
    const before = await lock.isCancelRequested(key, 'run-1');
    await lock.requestCancel(key, 'run-1');

    // Act
    await lock.acquire(key, { owner: 'run-1', ttlSeconds: 60 });

    // Assert
    expect(before).toBe(false);
    expect(await lock.isCancelRequested(key, 'run-1')).toBe(true);
  });

  it('of an old run does not touch the next run of the same job', async () => {
    // Arrange
    const lock = new MemoryJobLock();
    await lock.acquire(key, { owner: 'run-1', ttlSeconds: 60 });
    await lock.release(key, 'run-1');
    await lock.acquire(key, { owner: 'run-2', ttlSeconds: 60 });

    // Act
    const flagged = await lock.requestCancel(key, 'run-1');

    // Assert
    expect(flagged).toBe(false);
    expect(await lock.isCancelRequested(key, 'run-2')).toBe(false);
  });
});
