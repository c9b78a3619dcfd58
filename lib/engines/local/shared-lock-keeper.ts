/**
 * Keeps a local run's shared job lock alive (lib/stores/nomad-variables-lock.ts): a terminal may
 * wait on a question for hours, and no step runs meanwhile, so the process renews the lock itself
 * every 0.7 of its TTL (the factor of Nomad's own `LockLeaser`), with the lock ID its engine's own
 * lock keeps. A laptop that dies or sleeps stops renewing, and Nomad frees the lock two TTLs and a
 * LockDelay later (its server doubles the TTL). A renewal Nomad refuses means the lock is lost:
 * renewing stops, and the run's next safe point, which renews the lock too, meets the same refusal
 * and ends the run failed before another batch (lib/steps/lock/guard-step.ts).
 */
import { NomadClient } from '../../nomad/client';
import { type NomadClientConfig, resolveNomadConfig } from '../../nomad/config';
import { JobLockLostError } from '../../stores/errors';
import type { JobLock, LockKey } from '../../stores/job-lock';
import { NomadVariablesLock } from '../../stores/nomad-variables-lock';
import {
  LOCAL_SHARED_LOCK_TTL_MS,
  localLockIdentity,
  sharedLockMode,
} from '../../stores/shared-lock-settings';
import { TaskStates } from '../../workflow/state-names';

/** Renewals running for one run; `stop` ends them before the run's release step frees the lock. */
export interface SharedLockKeeper {
  stop(): Promise<void>;
}

/** What {@link keepSharedLock} needs. */
export interface KeepSharedLockOptions {
  /** The command's client configuration. @default - from this process's `NOMAD_*` variables */
  readonly nomad?: NomadClientConfig | undefined;
  /** The run's own lock (memory or DynamoDB): it keeps the shared lock's ID, which only the acquire answer gave. */
  readonly own: JobLock;
  readonly key: LockKey;
  readonly runId: string;
  /** @default 0.7 of the local TTL (Nomad's `LockLeaser` renews at that factor) */
  readonly renewEveryMs?: number;
}

/** Renews `runId`'s shared lock on `key` until stopped; does nothing when the shared lock is off. */
export function keepSharedLock(options: KeepSharedLockOptions): SharedLockKeeper {
  if (sharedLockMode() === 'off') return { stop: async () => {} };
  const client = NomadClient.create(options.nomad ?? resolveNomadConfig({}));
  const lock = new NomadVariablesLock(client, {
    identity: localLockIdentity(),
    ttl: `${LOCAL_SHARED_LOCK_TTL_MS / 1000}s`,
  });
  let lost = false;
  let stopped = false;
  let inFlight: Promise<void> = Promise.resolve();
  const renew = async () => {
    if (lost || stopped) return;
    // A run without the shared lock (a token that may not take it) has nothing to renew.
    const sharedLockId = (await options.own.held(options.key, options.runId))?.sharedLockId;
    if (sharedLockId === undefined) return;
    try {
      await lock.renew(options.key, options.runId, sharedLockId);
    } catch (err) {
      // Refused: lost for good. Anything else (Nomad unreachable for a moment) is tried again at
      // the next tick; the safe point's own renewal has the last word either way.
      if (err instanceof JobLockLostError) lost = true;
    }
  };
  const timer = setInterval(
    () => {
      inFlight = renew();
    },
    options.renewEveryMs ?? LOCAL_SHARED_LOCK_TTL_MS * 0.7,
  );
  timer.unref();
  return {
    // Idempotent; a renewal in flight ends first, so none lands after the run released the lock.
    stop: async () => {
      if (stopped) return inFlight;
      stopped = true;
      clearInterval(timer);
      await inFlight;
      await client.close();
    },
  };
}

/** A local run's lease on its shared lock: kept from "Lock job" until the run releases the lock. */
export interface LocalRunLease {
  /** After each state: "Lock job" ending without an error means the run holds the job now. */
  stateExited(name: string, output: unknown, key: LockKey | undefined, runId: string | undefined): void;
  /** Before each Task: the release steps wait for renewals to stop (one after would take the freed lock). */
  beforeTask(name: string): Promise<void>;
  stop(): Promise<void>;
}

/** The lease of one local run, renewed with the shared lock's ID kept in `own`. */
export function localRunLease(nomad: NomadClientConfig | undefined, own: JobLock): LocalRunLease {
  let keeper: SharedLockKeeper | undefined;
  return {
    stateExited(name, output, key, runId) {
      const took = (output as { error?: unknown } | null)?.error === undefined;
      if (name !== TaskStates.lockJob || !took || key === undefined || runId === undefined || keeper) return;
      keeper = keepSharedLock({ nomad, own, key, runId });
    },
    beforeTask: async (name) => {
      if (name === TaskStates.releaseLock || name === TaskStates.releaseLockAfterError) await keeper?.stop();
    },
    stop: async () => keeper?.stop(),
  };
}
