/**
 * One restart per job at a time. A run takes the lock for `<namespace>/<jobId>` after Plan and
 * releases it on every way out (success, Catch, and, for executions that die outside a Catch,
 * the EventBridge cleanup). The lock carries a TTL as a last safety net, and a cancel flag that
 * the workflow reads at its safe points.
 */
import { LockHeldError } from './errors';

/** Which job a lock protects. */
export interface LockKey {
  readonly namespace: string;
  readonly jobId: string;
}

/** The lock table's partition key for a job: `<namespace>/<jobId>` (`/` cannot start a job ID). */
export function lockKeyString(key: LockKey): string {
  return `${key.namespace}/${key.jobId}`;
}

export interface JobLock {
  /**
   * Takes (or refreshes, when `owner` already holds it) the lock until `now + ttlSeconds`.
   * A refresh keeps the lock's other attributes (a cancel flag written meanwhile stays). A lock
   * another run holds is never taken here, whatever its lease says: `LockHeldError` names the
   * holder, and only {@link takeOver}, after the holder was found not running, takes it.
   */
  acquire(key: LockKey, owner: string, ttlSeconds: number): Promise<void>;
  /**
   * Takes the lock from `previousOwner`, a run found no longer running, for `owner`. Throws
   * `LockHeldError` when someone else holds it by now (another run took it over first).
   */
  takeOver(key: LockKey, owner: string, previousOwner: string, ttlSeconds: number): Promise<void>;
  /** Releases the lock if `owner` holds it; `false` when it did not (nothing changed). */
  release(key: LockKey, owner: string): Promise<boolean>;
  /** Releases every lock `owner` holds (cleanup after a dead execution); returns how many. */
  releaseByOwner(owner: string): Promise<number>;
  /**
   * Flags a cancel request for run `owner` on the job's lock; `false` when that run does not
   * hold it (finished, or the job is another run's now: a late cancel never touches it).
   */
  requestCancel(key: LockKey, owner: string): Promise<boolean>;
  /** Whether a cancel was requested for the run `owner` holding the job's lock. */
  isCancelRequested(key: LockKey, owner: string): Promise<boolean>;
}

interface MemoryLockItem {
  owner: string;
  expiresAtMs: number;
  cancelRequested: boolean;
}

/** In-process lock for local runs and tests; same semantics as the DynamoDB lock. */
export class MemoryJobLock implements JobLock {
  private readonly items = new Map<string, MemoryLockItem>();

  public constructor(private readonly now: () => number = Date.now) {}

  public async acquire(key: LockKey, owner: string, ttlSeconds: number): Promise<void> {
    const id = lockKeyString(key);
    const held = this.items.get(id);
    if (held !== undefined && held.owner !== owner) throw new LockHeldError(id, held.owner);
    const cancelRequested = held?.cancelRequested === true;
    this.items.set(id, { owner, expiresAtMs: this.now() + ttlSeconds * 1000, cancelRequested });
  }

  public async takeOver(
    key: LockKey,
    owner: string,
    previousOwner: string,
    ttlSeconds: number,
  ): Promise<void> {
    const id = lockKeyString(key);
    const held = this.items.get(id);
    if (held !== undefined && held.owner !== previousOwner) throw new LockHeldError(id, held.owner);
    this.items.set(id, { owner, expiresAtMs: this.now() + ttlSeconds * 1000, cancelRequested: false });
  }

  public async release(key: LockKey, owner: string): Promise<boolean> {
    const id = lockKeyString(key);
    if (this.items.get(id)?.owner !== owner) return false;
    this.items.delete(id);
    return true;
  }

  public async releaseByOwner(owner: string): Promise<number> {
    let released = 0;
    for (const [id, item] of [...this.items]) {
      if (item.owner === owner) {
        this.items.delete(id);
        released += 1;
      }
    }
    return released;
  }

  public async requestCancel(key: LockKey, owner: string): Promise<boolean> {
    const item = this.items.get(lockKeyString(key));
    if (item === undefined || item.owner !== owner) return false;
    item.cancelRequested = true;
    return true;
  }

  public async isCancelRequested(key: LockKey, owner: string): Promise<boolean> {
    const item = this.items.get(lockKeyString(key));
    return item !== undefined && item.owner === owner && item.cancelRequested;
  }

  /** The holder of a job's lock, if any; for tests and diagnostics. */
  public holder(key: LockKey): string | undefined {
    return this.items.get(lockKeyString(key))?.owner;
  }
}
