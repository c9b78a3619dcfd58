import { LockHeldError, MemoryJobLock, MemoryPlanStore } from '../../lib/stores';

describe('MemoryJobLock', () => {
  const key = { namespace: 'default', jobId: 'web' };

  describe('acquire', () => {
    it('refuses a second run while the first holds the lock, whatever its lease says', async () => {
      // Arrange
      let now = 0;
      const lock = new MemoryJobLock(() => now);
      await lock.acquire(key, { owner: 'run-1', ttlSeconds: 60 });

      // Act
      const second = lock.acquire(key, { owner: 'run-2', ttlSeconds: 60 });
      now = 61_000;
      const afterLease = lock.acquire(key, { owner: 'run-2', ttlSeconds: 60 });

      // Assert
      await expect(second).rejects.toThrow(new LockHeldError('default/web', 'run-1'));
      await expect(afterLease).rejects.toThrow(new LockHeldError('default/web', 'run-1'));
    });

    it('is taken over from the run named as ended, and from no other', async () => {
      // Arrange
      const lock = new MemoryJobLock();
      await lock.acquire(key, { owner: 'run-1', ttlSeconds: 60 });

      // Act
      const wrong = lock.takeOver(key, { owner: 'run-3', ttlSeconds: 60 }, 'run-2');
      await lock.takeOver(key, { owner: 'run-2', ttlSeconds: 60 }, 'run-1');

      // Assert
      await expect(wrong).rejects.toThrow(new LockHeldError('default/web', 'run-1'));
      expect(lock.holder(key)).toBe('run-2');
    });
  });

  describe('release', () => {
    it('releases only for the holder', async () => {
      // Arrange
      const lock = new MemoryJobLock();
      await lock.acquire(key, { owner: 'run-1', ttlSeconds: 60 });

      // Act
      const byOther = await lock.release(key, 'run-2');
      const byHolder = await lock.release(key, 'run-1');

      // Assert
      expect([byOther, byHolder]).toEqual([undefined, { key }]);
      expect(lock.holder(key)).toBeUndefined();
    });
  });
});

describe('MemoryPlanStore', () => {
  describe('endRun', () => {
    it('marks only the keys under the prefix as ended, and keeps them readable', async () => {
      // Arrange
      const store = new MemoryPlanStore();
      await store.put('runs/a/plan', 1);
      await store.put('runs/b/plan', 2);

      // Act
      await store.endRun('runs/a/');

      // Assert
      expect([store.isEnded('runs/a/plan'), store.isEnded('runs/b/plan')]).toEqual([true, false]);
      await expect(store.get('runs/a/plan')).resolves.toBe(1);
    });
  });

  describe('list', () => {
    it('lists only the keys under the prefix, sorted', async () => {
      // Arrange
      const store = new MemoryPlanStore();
      await store.put('fleets/f/results/m/manifest.json', {});
      await store.put('fleets/f/items.json', []);
      await store.put('fleets/f/results/m/FAILED_0.json', []);

      // Act
      const keys = await store.list('fleets/f/results/');

      // Assert
      expect(keys).toEqual(['fleets/f/results/m/FAILED_0.json', 'fleets/f/results/m/manifest.json']);
    });
  });
});
