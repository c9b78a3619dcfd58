/**
 * The job lock a run holds: its engine's own lock (in-process, or DynamoDB on AWS: cancel flags,
 * the lookup by owner, takeover from a dead execution) paired with the job's shared lock in Nomad
 * (one run per job across laptops and AWS). A run holds both, or its own alone when the shared
 * lock is off, or optional and out of reach (a token that may not take it, a Nomad without the
 * lock API: then {@link PairedJobLock.sharedSkipped} says why, for the run to warn).
 *
 * The engine's own lock keeps the shared lock's ID (`HeldLock.sharedLockId`): Nomad gives it to
 * its holder once, at the lock-acquire, and every later renewal and release needs it.
 */

import { randomUUID } from 'node:crypto';
import type { ControlRequest } from '../control/requests';
import { isTransientNomadError } from '../nomad/errors';
import { JobLockLostError, SharedLockUnavailableError } from './errors';
import { fleetControlKey } from './fleet-control-key';
import type { HeldLock, JobLock, LeaseRequest, LockKey } from './job-lock';
import type { NomadControlRequests } from './nomad-control-requests';
import type { NomadVariablesLock } from './nomad-variables-lock';

/** How the pair treats the shared lock. */
export interface PairedJobLockOptions {
  /** A shared lock out of reach fails the run (else the run goes on without it). */
  readonly required: boolean;
  /**
   * The job's run-control request variable in Nomad, read beside the engine's own requests (a
   * terminal elsewhere asks through it). @default - the engine's own requests only
   */
  readonly requests?: NomadControlRequests | undefined;
}

export class PairedJobLock {
  private skipped: SharedLockUnavailableError | undefined;

  /** @param shared `undefined` when the shared lock is off. */
  public constructor(
    private readonly own: JobLock,
    private readonly shared: NomadVariablesLock | undefined,
    private readonly options: PairedJobLockOptions,
  ) {}

  /** Why the shared lock was left out (optional, and out of reach). */
  public get sharedSkipped(): SharedLockUnavailableError | undefined {
    return this.skipped;
  }

  /**
   * "Lock job": takes the engine's lock, then the shared one under an ID kept beside the first.
   * A retried take finds that ID and acquires again with it, then renews (Nomad does not start a
   * held lock's TTL again on a second acquire).
   * @throws LockHeldError (SharedLockHeldError for the shared lock) naming the holder.
   */
  public async take(key: LockKey, lease: LeaseRequest): Promise<void> {
    const held = await this.own.acquire(key, lease);
    await this.takeShared(key, lease.owner, held.sharedLockId, async (shared, id) => {
      await shared.take(key, lease.owner, id);
      if (held.sharedLockId !== undefined) await shared.renew(key, lease.owner, id);
    });
  }

  /**
   * Takes the lock from `previousOwner`, a run found no longer running: its shared lock is freed
   * with the ID its engine's lock kept, then both are taken. Nomad's lock goes first, as in
   * {@link release}: should Nomad not answer, the dead run's lock still keeps the ID for the retry.
   */
  public async takeOver(key: LockKey, lease: LeaseRequest, previousOwner: string): Promise<void> {
    const previous = await this.own.held(key, previousOwner);
    if (previous !== undefined) await this.releaseShared(previous);
    await this.own.takeOver(key, lease, previousOwner);
    await this.takeShared(key, lease.owner, undefined, (shared, id) => shared.take(key, lease.owner, id));
  }

  /**
   * The safe point before a batch (and a terminal's keeper between them): extends the engine's
   * lease and renews the shared lock.
   * @throws JobLockLostError when the run holds the job no more: no restart may follow.
   */
  public async refresh(key: LockKey, lease: LeaseRequest): Promise<void> {
    const held = await this.own.extend(key, lease);
    if (held === undefined)
      throw new JobLockLostError(
        "The job's lock was lost: this run's lease on it ran out or another run took it over",
        undefined,
      );
    if (held.sharedLockId !== undefined) await this.shared?.renew(key, lease.owner, held.sharedLockId);
  }

  /**
   * Releases both locks if `owner` holds them; `false` when it held neither. The shared lock goes
   * first: should Nomad not answer now, the engine's lock still keeps its ID for a retry (or for
   * the next run's takeover) instead of leaving it to the TTL.
   */
  public async release(key: LockKey, owner: string): Promise<boolean> {
    const held = await this.own.held(key, owner);
    if (held === undefined) return false;
    await this.releaseShared(held);
    return (await this.own.release(key, owner)) !== undefined;
  }

  /**
   * Releases every lock `owner` holds, each as {@link release} does (the shared lock first, so a
   * Nomad that does not answer leaves the ID kept for the cleanup's retry); returns the jobs it
   * freed (the cleanup ends their runs' records in the history).
   */
  public async releaseByOwner(owner: string): Promise<LockKey[]> {
    const released: LockKey[] = [];
    for (const key of await this.own.keysHeldBy(owner))
      if (await this.release(key, owner)) released.push(key);
    return released;
  }

  public requestCancel(key: LockKey, owner: string): Promise<boolean> {
    return this.own.requestCancel(key, owner);
  }

  public isCancelRequested(key: LockKey, owner: string): Promise<boolean> {
    return this.own.isCancelRequested(key, owner);
  }

  public requestControl(key: LockKey, owner: string, request: ControlRequest): Promise<boolean> {
    return this.own.requestControl(key, owner, request);
  }

  /**
   * The request recorded for the fleet run `fleetRunId` on its own item (lib/stores/fleet-control-key.ts):
   * the engine's lock only, as a fleet names no job and so has no request variable in Nomad.
   */
  public fleetControlRequest(fleetRunId: string): Promise<ControlRequest | undefined> {
    return this.own.controlRequest(fleetControlKey(fleetRunId), fleetRunId);
  }

  /**
   * The request for run `owner`: the engine's own (in-process, the lock table) or the one in
   * Nomad's request variable, the newer of the two when both are there (the operator's last word).
   * Nomad's is read only while `owner` holds the engine's lock: a request is for the holder alone.
   * `atSafePoint` (the guard, not a parked question's poll): the run's parked marker in Nomad is
   * deleted, since the run is no longer paused (lib/stores/nomad-control-requests.ts).
   */
  public async controlRequest(
    key: LockKey,
    owner: string,
    options: { readonly atSafePoint?: boolean } = {},
  ): Promise<ControlRequest | undefined> {
    const own = await this.own.controlRequest(key, owner);
    const requests = this.options.requests;
    if (requests === undefined || (await this.own.held(key, owner)) === undefined) return own;
    const nomad = (await requests.read(key, owner, options))?.request;
    if (own === undefined || nomad === undefined) return own ?? nomad;
    return nomad.at > own.at ? nomad : own;
  }

  /**
   * Forgets `request` and any older request wherever recorded (a pause asked in one place and
   * resumed from the other must not pause the run again); a newer request in either is kept.
   */
  public async clearControlRequest(key: LockKey, owner: string, request: ControlRequest): Promise<void> {
    const own = await this.own.controlRequest(key, owner);
    if (own !== undefined && own.at <= request.at) await this.own.clearControlRequest(key, owner, own);
    const requests = this.options.requests;
    const nomad = await requests?.read(key, owner);
    if (nomad !== undefined && nomad.request.at <= request.at) await requests?.clear(key, nomad);
  }

  /**
   * Forgets the pause `request` as {@link clearControlRequest} does, except that in Nomad the pause
   * becomes the parked marker, which shows other terminals the run is paused until a `resume` or
   * `stop` replaces it or the run's next safe point deletes it.
   */
  public async parkControlRequest(key: LockKey, owner: string, request: ControlRequest): Promise<void> {
    const own = await this.own.controlRequest(key, owner);
    if (own !== undefined && own.at <= request.at) await this.own.clearControlRequest(key, owner, own);
    const requests = this.options.requests;
    const nomad = await requests?.read(key, owner);
    if (nomad === undefined || nomad.request.at > request.at) return;
    // Only a pause parks; an older request of another verb is forgotten as before.
    if (nomad.request.verb === 'pause') await requests?.park(key, owner, nomad);
    else await requests?.clear(key, nomad);
  }

  private async releaseShared(held: HeldLock): Promise<void> {
    if (held.sharedLockId === undefined || this.shared === undefined) return;
    await this.shared.release(held.key, held.sharedLockId);
  }

  /**
   * Takes the shared lock with `take` under `keptId` or a fresh random ID, kept first (so that a
   * take whose answer was lost can be retried). A run left without it forgets the ID; one that
   * cannot take it gives its own lock back (it blocks nobody). One that Nomad did not answer keeps
   * both, for the step's retry.
   */
  private async takeShared(
    key: LockKey,
    owner: string,
    keptId: string | undefined,
    take: (shared: NomadVariablesLock, lockId: string) => Promise<void>,
  ): Promise<void> {
    const shared = this.shared;
    if (shared === undefined) return;
    const lockId = keptId ?? randomUUID();
    if (keptId === undefined) await this.own.keepSharedLockId(key, owner, lockId);
    try {
      await take(shared, lockId);
    } catch (err) {
      if (err instanceof SharedLockUnavailableError && !this.options.required) {
        this.skipped = err;
        await this.own.forgetSharedLockId(key, owner);
        return;
      }
      // Nomad may have taken the lock and lost its answer on the way back: the run keeps its own
      // lock and the ID beside it, so the step's retry acquires again under that ID (Nomad lets
      // its holder) instead of meeting its own lock as another run's. A run that is not retried
      // frees both on its way out ("Release lock after error", or the stale-lock cleanup).
      if (!isTransientNomadError(err)) await this.own.release(key, owner);
      throw err;
    }
  }
}
