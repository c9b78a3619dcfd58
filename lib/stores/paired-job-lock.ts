/**
 * The job lock a run holds: its engine's own lock (in-process, or DynamoDB on AWS: cancel flags,
 * the lookup by owner, takeover from a dead execution) paired with the job's shared lock in Nomad
 * (one run per job across laptops and AWS). A run holds both, or its own alone when the shared
 * lock is optional and the Nomad token may not take it (then {@link PairedJobLock.sharedDenied}
 * says why, for the run to warn).
 */
import { SharedLockPermissionError } from './errors';
import type { JobLock, LockKey } from './job-lock';
import type { NomadVariablesLock } from './nomad-variables-lock';

/** How the pair treats the shared lock. */
export interface PairedJobLockOptions {
  /** A token that may not take the shared lock fails the run (else the run goes on without it). */
  readonly required: boolean;
  /** `false` leaves the shared lock's renewal to a keeper (a local process renews it itself). */
  readonly renewShared: boolean;
}

/** A token that may not touch the shared lock never held it: nothing of it to release. */
async function deniedAs<T>(call: () => Promise<T>, nothing: T): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof SharedLockPermissionError) return nothing;
    throw err;
  }
}

export class PairedJobLock implements JobLock {
  private denied: SharedLockPermissionError | undefined;

  public constructor(
    private readonly own: JobLock,
    private readonly shared: NomadVariablesLock,
    private readonly options: PairedJobLockOptions,
  ) {}

  /** Why the shared lock was left out (an optional shared lock the token may not take). */
  public get sharedDenied(): SharedLockPermissionError | undefined {
    return this.denied;
  }

  public async acquire(key: LockKey, owner: string, ttlSeconds: number): Promise<void> {
    await this.own.acquire(key, owner, ttlSeconds);
    if (!this.options.renewShared) return;
    await this.withOwnReleasedOnFailure(key, owner, () => this.shared.acquire(key, owner));
  }

  public async takeOver(
    key: LockKey,
    owner: string,
    previousOwner: string,
    ttlSeconds: number,
  ): Promise<void> {
    await this.own.takeOver(key, owner, previousOwner, ttlSeconds);
    await this.withOwnReleasedOnFailure(key, owner, () => this.shared.takeOver(key, owner, previousOwner));
  }

  public async release(key: LockKey, owner: string): Promise<boolean> {
    // The engine's own lock first: it must be freed even when Nomad cannot be reached now.
    const own = await this.own.release(key, owner);
    const shared = await deniedAs(() => this.shared.release(key, owner), false);
    return own || shared;
  }

  public async releaseByOwner(owner: string): Promise<number> {
    const own = await this.own.releaseByOwner(owner);
    const shared = await deniedAs(() => this.shared.releaseByOwner(owner), 0);
    return Math.max(own, shared);
  }

  public requestCancel(key: LockKey, owner: string): Promise<boolean> {
    return this.own.requestCancel(key, owner);
  }

  public isCancelRequested(key: LockKey, owner: string): Promise<boolean> {
    return this.own.isCancelRequested(key, owner);
  }

  /** A run that cannot take the shared lock gives its own back, so it blocks nobody. */
  private async withOwnReleasedOnFailure(
    key: LockKey,
    owner: string,
    take: () => Promise<void>,
  ): Promise<void> {
    try {
      await this.unlessDenied(take, undefined);
    } catch (err) {
      await this.own.release(key, owner);
      throw err;
    }
  }

  /** Runs a shared-lock call; a token that may not is `fallback` when the shared lock is optional. */
  private async unlessDenied<T>(call: () => Promise<T>, fallback: T): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof SharedLockPermissionError) || this.options.required) throw err;
      this.denied = err;
      return fallback;
    }
  }
}
