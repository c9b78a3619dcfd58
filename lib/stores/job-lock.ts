/**
 * One restart per job at a time. A run takes the lock for `<namespace>/<jobId>` after Plan and
 * releases it on every way out (success, Catch, and, for executions that die outside a Catch,
 * the EventBridge cleanup). The lock carries a TTL as a last safety net, and a cancel flag that
 * the workflow reads at its safe points.
 */
import type { ControlRequest } from '../control/requests';
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

/**
 * A job lock as its holder knows it. The engine's own lock also keeps the ID of the job's shared
 * lock in Nomad for its holder: Nomad shows that ID only in the answer to the lock-acquire and to
 * management tokens (`nomad/variables_endpoint.go`, `Read`), so the run that took it must keep it
 * where its later steps (and the cleanup of a dead run) can read it, and nobody else can.
 */
export interface HeldLock {
  readonly key: LockKey;
  /** The ID of the job's shared lock in Nomad, once the holder took that lock. */
  readonly sharedLockId?: string;
}

/** What a run asks for when it takes or extends a job's lock. */
export interface LeaseRequest {
  /** The run: its identity, the first execution's. */
  readonly owner: string;
  /** How long the lease lasts from now. */
  readonly ttlSeconds: number;
  /**
   * The execution running the run now (a run that continues as new runs on in another
   * execution): a takeover asks whether that one still runs, and a refused run's
   * `LockHeldError.holderExecution` names it.
   */
  readonly execution?: string | undefined;
}

export interface JobLock {
  /**
   * Takes (or refreshes, when `lease.owner` already holds it) the lock until `now + ttlSeconds`.
   * A refresh keeps the lock's other attributes (a cancel flag, the shared lock's ID). A lock
   * another run holds is never taken here, whatever its lease says: `LockHeldError` names the
   * holder, and only {@link takeOver}, after the holder was found not running, takes it.
   */
  acquire(key: LockKey, lease: LeaseRequest): Promise<HeldLock>;
  /**
   * Takes the lock from `previousOwner`, a run found no longer running, for `lease.owner`; answers
   * what the previous holder held (its shared lock's ID, to free it), if its lock was still there.
   * Throws `LockHeldError` when someone else holds it by now (another run took it over first).
   */
  takeOver(key: LockKey, lease: LeaseRequest, previousOwner: string): Promise<HeldLock | undefined>;
  /**
   * Extends the lease of a lock `lease.owner` holds, keeping its other attributes, and answers it;
   * `undefined` when the owner does not hold it any more (its lease ran out, or it was taken over).
   * Never takes a lock: a run between its batches must still hold the lock it took.
   */
  extend(key: LockKey, lease: LeaseRequest): Promise<HeldLock | undefined>;
  /** The lock `owner` holds on `key` (a consistent read), if it does. */
  held(key: LockKey, owner: string): Promise<HeldLock | undefined>;
  /**
   * Keeps the ID of the shared lock `owner` takes beside its own lock.
   * @throws LockHeldError when not its lock.
   */
  keepSharedLockId(key: LockKey, owner: string, sharedLockId: string): Promise<void>;
  /**
   * Forgets the shared lock's ID kept beside `owner`'s lock (a run going on without it).
   * @throws LockHeldError when not its lock.
   */
  forgetSharedLockId(key: LockKey, owner: string): Promise<void>;
  /** Releases the lock if `owner` holds it, answering what it held; `undefined` when it did not. */
  release(key: LockKey, owner: string): Promise<HeldLock | undefined>;
  /**
   * The jobs whose lock `owner` holds (the cleanup after a dead execution releases each), read
   * only: the cleanup frees each job's shared lock before it deletes the lock that keeps its ID.
   */
  keysHeldBy(owner: string): Promise<LockKey[]>;
  /**
   * Flags a cancel request for run `owner` on the job's lock; `false` when that run does not
   * hold it (finished, or the job is another run's now: a late cancel never touches it).
   */
  requestCancel(key: LockKey, owner: string): Promise<boolean>;
  /** Whether a cancel was requested for the run `owner` holding the job's lock. */
  isCancelRequested(key: LockKey, owner: string): Promise<boolean>;
  /**
   * Records a run-control request (pause, resume, stop: lib/control/requests.ts) for the run
   * `owner` holding the job's lock, replacing any request recorded before; `false` when that run
   * does not hold it (ended, or the job is another run's now: a late request never touches it).
   */
  requestControl(key: LockKey, owner: string, request: ControlRequest): Promise<boolean>;
  /** The run-control request recorded for the run `owner` holding the job's lock, if any. */
  controlRequest(key: LockKey, owner: string): Promise<ControlRequest | undefined>;
  /**
   * Forgets `request` once the run acted on it; a newer request recorded meanwhile (another `at`)
   * is kept for the next safe point.
   */
  clearControlRequest(key: LockKey, owner: string, request: ControlRequest): Promise<void>;
}

interface MemoryLockItem {
  key: LockKey;
  owner: string;
  execution?: string | undefined;
  expiresAtMs: number;
  cancelRequested: boolean;
  sharedLockId?: string;
  control?: ControlRequest;
}

/** What a lock item held, as its holder knows it. */
const heldLockOf = (item: MemoryLockItem): HeldLock =>
  item.sharedLockId === undefined ? { key: item.key } : { key: item.key, sharedLockId: item.sharedLockId };

/** The error for a lock `held` by another run, naming its run and the execution running it now. */
const heldBy = (id: string, held: MemoryLockItem): LockHeldError =>
  new LockHeldError(id, held.owner, { holderExecution: held.execution });

/** In-process lock for local runs and tests; same semantics as the DynamoDB lock. */
export class MemoryJobLock implements JobLock {
  private readonly items = new Map<string, MemoryLockItem>();

  public constructor(private readonly now: () => number = Date.now) {}

  public async acquire(key: LockKey, lease: LeaseRequest): Promise<HeldLock> {
    const id = lockKeyString(key);
    const held = this.items.get(id);
    if (held !== undefined && held.owner !== lease.owner) throw heldBy(id, held);
    const item = held ?? { key, owner: lease.owner, expiresAtMs: 0, cancelRequested: false };
    this.items.set(id, item);
    return heldLockOf(this.renew(item, lease));
  }

  public async takeOver(
    key: LockKey,
    lease: LeaseRequest,
    previousOwner: string,
  ): Promise<HeldLock | undefined> {
    const id = lockKeyString(key);
    const held = this.items.get(id);
    if (held !== undefined && held.owner !== previousOwner) throw heldBy(id, held);
    this.items.set(
      id,
      this.renew({ key, owner: lease.owner, expiresAtMs: 0, cancelRequested: false }, lease),
    );
    return held === undefined ? undefined : heldLockOf(held);
  }

  public async extend(key: LockKey, lease: LeaseRequest): Promise<HeldLock | undefined> {
    const held = this.items.get(lockKeyString(key));
    return held?.owner === lease.owner ? heldLockOf(this.renew(held, lease)) : undefined;
  }

  public async held(key: LockKey, owner: string): Promise<HeldLock | undefined> {
    const held = this.items.get(lockKeyString(key));
    return held?.owner === owner ? heldLockOf(held) : undefined;
  }

  public async keepSharedLockId(key: LockKey, owner: string, sharedLockId: string): Promise<void> {
    this.itemOf(key, owner).sharedLockId = sharedLockId;
  }

  public async forgetSharedLockId(key: LockKey, owner: string): Promise<void> {
    delete this.itemOf(key, owner).sharedLockId;
  }

  public async release(key: LockKey, owner: string): Promise<HeldLock | undefined> {
    const id = lockKeyString(key);
    const held = this.items.get(id);
    if (held?.owner !== owner) return undefined;
    this.items.delete(id);
    return heldLockOf(held);
  }

  public async keysHeldBy(owner: string): Promise<LockKey[]> {
    return [...this.items.values()].filter((item) => item.owner === owner).map((item) => item.key);
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

  public async requestControl(key: LockKey, owner: string, request: ControlRequest): Promise<boolean> {
    const item = this.items.get(lockKeyString(key));
    if (item === undefined || item.owner !== owner) return false;
    item.control = request;
    return true;
  }

  public async controlRequest(key: LockKey, owner: string): Promise<ControlRequest | undefined> {
    const item = this.items.get(lockKeyString(key));
    return item?.owner === owner ? item.control : undefined;
  }

  public async clearControlRequest(key: LockKey, owner: string, request: ControlRequest): Promise<void> {
    const item = this.items.get(lockKeyString(key));
    if (item?.owner === owner && item.control?.at === request.at && item.control.verb === request.verb)
      delete item.control;
  }

  /** `item` with its lease started again now, naming the execution when the request does. */
  private renew(item: MemoryLockItem, lease: LeaseRequest): MemoryLockItem {
    item.expiresAtMs = this.now() + lease.ttlSeconds * 1000;
    if (lease.execution !== undefined) item.execution = lease.execution;
    return item;
  }

  /** The item of the lock `owner` holds on `key`. @throws LockHeldError when not its lock. */
  private itemOf(key: LockKey, owner: string): MemoryLockItem {
    const id = lockKeyString(key);
    const held = this.items.get(id);
    if (held?.owner !== owner) throw new LockHeldError(id, held?.owner ?? 'nobody');
    return held;
  }

  /** The holder of a job's lock, if any; for tests and diagnostics. */
  public holder(key: LockKey): string | undefined {
    return this.items.get(lockKeyString(key))?.owner;
  }
}
