/**
 * Nomad Variables and their locks, as the real agent answered (docs/reliability.md, guarantee 4; Nomad's
 * `nomad/state/state_store_variables.go` and `nomad/variables_endpoint.go`): acquire writes the
 * whole variable and locks it with a new ID for `TTL` (10 s to 24 h, 15 s by default); a lock is
 * held until released or, without a renewal, until its TTL and then its `LockDelay` (15 s by
 * default) have passed; renew and release need the lock's ID. An explicit release frees it at
 * once (no delay). Conflicts carry no holder information. A delete (`cas` optional) never removes
 * a locked variable (the HTTP delete carries no lock ID).
 */

import type { TimerSet } from '../clock';
import { formatGoDuration, parseGoDuration } from '../duration';
import { SimHttpError } from '../errors';
import type { VariablesApi } from '../types';
import type { SimContext } from './context';
import { newId, nowNs } from './context';

const MIN_TTL_MS = 10_000;
const MAX_TTL_MS = 24 * 60 * 60 * 1000;
const DEFAULT_TTL_MS = 15_000;
const DEFAULT_DELAY_MS = 15_000;

interface HeldLock {
  id: string;
  ttl: string;
  delay: string;
  ttlMs: number;
  delayMs: number;
  /** Past its TTL without a renewal: it cannot be renewed, and frees itself after the delay. */
  expired: boolean;
  cancel: () => void;
}

/** One variable: its items, its lock while held, and Nomad's indexes. */
export interface VariableRecord {
  namespace: string;
  path: string;
  items: Record<string, string>;
  lock: HeldLock | undefined;
  createIndex: number;
  modifyIndex: number;
  createTime: number;
  modifyTime: number;
}

/** What a lock operation was asked: Go durations, and the ID for renew and release. */
export interface LockRequest {
  ID?: string;
  TTL?: string;
  LockDelay?: string;
}

/**
 * What a delete did: `deleted` (also when there was nothing to delete), or Nomad's 409 with the
 * variable whose index did not match, or `locked`/`missing` (Nomad answers those with a zero value).
 */
export type DeleteOutcome =
  | { kind: 'deleted'; index: number }
  | { kind: 'changed'; current: VariableRecord }
  | { kind: 'locked' | 'missing' };

/**
 * What a plain write did: written, or Nomad's 409 with the variable that stood in the way
 * (`undefined`: Nomad's zero value, for a missing variable under `cas` or a locked one).
 */
export type UpsertOutcome =
  | { kind: 'written'; record: VariableRecord }
  | { kind: 'conflict'; current: VariableRecord | undefined };

/** Go's byte-wise string order (memdb's radix index), not the locale's. */
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const key = (namespace: string, path: string) => `${namespace}\u0000${path}`;

/** A lock field's Go duration in ms (`fallback` when empty). @throws SimHttpError 400 as Nomad's decoder. */
function durationMs(text: string | undefined, fallback: number): number {
  if (text === undefined || text === '') return fallback;
  const ms = parseGoDuration(text);
  if (ms === undefined) throw new SimHttpError(400, `time: invalid duration "${text}"`);
  return ms;
}

/** The variables of one simulated cluster. */
export class VariableStore {
  private readonly byKey = new Map<string, VariableRecord>();
  /** The Nomad generation whose variables API is spoken (the HTTP layer reads it). */
  public api: VariablesApi = 'locks';

  /** @param leases the timers of lock TTLs and delays (they keep real time in a scaled simulator). */
  public constructor(
    private readonly ctx: SimContext,
    private readonly leases: TimerSet,
  ) {}

  public read(namespace: string, path: string): VariableRecord | undefined {
    return this.byKey.get(key(namespace, path));
  }

  /**
   * Variables under `prefix` in `namespace` (`*`: every namespace), in the order of Nomad's
   * variables table (its ID index: namespace, then path).
   */
  public list(namespace: string, prefix: string): VariableRecord[] {
    return [...this.byKey.values()]
      .filter((v) => (namespace === '*' || v.namespace === namespace) && v.path.startsWith(prefix))
      .sort((a, b) => compare(a.namespace, b.namespace) || compare(a.path, b.path));
  }

  /**
   * A plain write (`nomad var put`, `PUT /v1/var/:path`), as Nomad's state store applies it
   * (`varSetCASTxn`, `varSetTxn` in nomad/state/state_store_variables.go): with `cas`, only if the
   * variable's ModifyIndex is `cas` (0: only if there is none); never over a lock held by another
   * (`lockId` is the writer's). Every write moves ModifyIndex and ModifyTime, even with the same
   * items: Nomad compares the stored metadata, whose ModifyTime is the request's own.
   */
  public upsert(
    namespace: string,
    path: string,
    items: Record<string, string>,
    cas: number | undefined,
    lockId: string | undefined,
  ): UpsertOutcome {
    const existing = this.read(namespace, path);
    if (cas === 0 && existing !== undefined) return { kind: 'conflict', current: existing };
    if (cas !== undefined && cas !== 0 && existing === undefined)
      return { kind: 'conflict', current: undefined };
    if (cas !== undefined && existing !== undefined && existing.modifyIndex !== cas)
      return { kind: 'conflict', current: existing };
    if (existing?.lock !== undefined && existing.lock.id !== lockId)
      return { kind: 'conflict', current: undefined };
    return { kind: 'written', record: this.set(namespace, path, items) };
  }

  /**
   * Writes the variable's items without a lock (also how a Nomad before 1.7 answers a lock-acquire).
   * `ageMs` dates the write that long before now (a scenario's variable written before its jobs).
   */
  public set(namespace: string, path: string, items: Record<string, string>, ageMs = 0): VariableRecord {
    const existing = this.read(namespace, path);
    return this.ctx.store.write(['variables'], (index) => {
      const now = nowNs(this.ctx) - Math.round(ageMs) * 1_000_000;
      const record: VariableRecord = existing ?? {
        namespace,
        path,
        items: {},
        lock: undefined,
        createIndex: index,
        modifyIndex: index,
        createTime: now,
        modifyTime: now,
      };
      record.items = { ...items };
      record.modifyIndex = index;
      record.modifyTime = now;
      this.byKey.set(key(namespace, path), record);
      return record;
    });
  }

  /** Writes the variable and locks it; `undefined` when another holder's lock is on it (409). */
  public acquire(
    namespace: string,
    path: string,
    items: Record<string, string>,
    request: LockRequest,
  ): VariableRecord | undefined {
    const ttlMs = durationMs(request.TTL, DEFAULT_TTL_MS);
    const delayMs = durationMs(request.LockDelay, DEFAULT_DELAY_MS);
    if (ttlMs < MIN_TTL_MS || ttlMs > MAX_TTL_MS)
      throw new SimHttpError(
        400,
        'RPC Error:: 400,1 error occurred:\n\t* TTL must be between 10 seconds and 24 hours\n\n',
      );
    const existing = this.read(namespace, path);
    const held = existing?.lock;
    if (held !== undefined && held.id !== request.ID) return undefined;
    if (held !== undefined && existing !== undefined) {
      // The holder acquiring again: items and settings are rewritten, but the lock's timer is not
      // started again (`CreateVariableLockTTLTimer` keeps an existing one, nomad/variables_endpoint.go).
      held.ttl = formatGoDuration(ttlMs);
      held.delay = formatGoDuration(delayMs);
      return this.set(namespace, path, items);
    }
    // One write, as Nomad's: the items and the lock carry the same index.
    const record = this.set(namespace, path, items);
    const lock: HeldLock = {
      id: request.ID || newId(this.ctx),
      ttl: formatGoDuration(ttlMs),
      delay: formatGoDuration(delayMs),
      ttlMs,
      delayMs,
      expired: false,
      cancel: () => {},
    };
    record.lock = lock;
    this.startTtl(record, lock);
    return record;
  }

  /** Starts the lock's TTL again. @throws SimHttpError 404/409 as Nomad answers. */
  public renew(namespace: string, path: string, id: string | undefined): VariableRecord {
    const record = this.held(namespace, path, 404, 409);
    if (record.lock?.id !== id) throw new SimHttpError(409, 'attempting to modify locked variable');
    const lock = record.lock as HeldLock;
    if (lock.expired) throw new SimHttpError(409, 'attempting to modify locked variable');
    lock.cancel();
    this.startTtl(record, lock);
    return record;
  }

  /**
   * Frees the lock at once; `false` for a wrong ID (409 with the path only). A variable that is
   * gone or holds no lock is a 500, as Nomad's state store answers it (`VarLockRelease`).
   * @throws SimHttpError 500.
   */
  public release(namespace: string, path: string, id: string): boolean {
    const record = this.held(namespace, path, 500, 500);
    if (record.lock?.id !== id) return false;
    this.free(record);
    return true;
  }

  /**
   * Deletes the variable, as `nomad/state/state_store_variables.go` does: with `cas`, only if its
   * ModifyIndex is `cas` (0: only if there is none); never while a lock is on it.
   */
  public delete(namespace: string, path: string, cas: number | undefined): DeleteOutcome {
    const record = this.read(namespace, path);
    if (cas !== undefined && cas !== 0 && record === undefined) return { kind: 'missing' };
    if (cas !== undefined && record !== undefined && record.modifyIndex !== cas)
      return { kind: 'changed', current: record };
    if (record?.lock !== undefined) return { kind: 'locked' };
    return this.ctx.store.write(['variables'], (index) => {
      this.byKey.delete(key(namespace, path));
      return { kind: 'deleted', index };
    });
  }

  /** Forgets every variable and its timers. */
  public clear(): void {
    for (const record of this.byKey.values()) record.lock?.cancel();
    this.byKey.clear();
  }

  /** The variable and its lock, or Nomad's errors (with the status each operation answers them with). */
  private held(namespace: string, path: string, missing: number, unlocked: number): VariableRecord {
    const record = this.read(namespace, path);
    if (record === undefined) throw new SimHttpError(missing, "variable doesn't exist");
    if (record.lock === undefined) throw new SimHttpError(unlocked, "variable doesn't hold a lock");
    return record;
  }

  /**
   * Twice the TTL (Nomad's server doubles it: "a variable lock is not expired before the TTL
   * expires, but there is no explicit promise about the upper bound", nomad/locks.go), then the
   * delay, then the lock is gone (the variable stays). A renewal before the doubled TTL counts.
   */
  private startTtl(record: VariableRecord, lock: HeldLock): void {
    lock.cancel = this.leases.after(2 * lock.ttlMs, () => {
      lock.expired = true;
      lock.cancel = this.leases.after(lock.delayMs, () => {
        if (record.lock === lock) this.free(record);
      });
    });
  }

  private free(record: VariableRecord): void {
    record.lock?.cancel();
    this.ctx.store.write(['variables'], (index) => {
      record.lock = undefined;
      record.modifyIndex = index;
      record.modifyTime = nowNs(this.ctx);
    });
  }
}
