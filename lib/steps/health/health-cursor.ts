/**
 * The health wait's cursor (`-wait-healthy`): which allocations of a batch are still awaited, and
 * since when each has been passing, carried between "Await health" slices in the plan store.
 */

import type { DeclaredConsulCheck } from '../../restart/health/consul-health';
import type { TaskRole } from '../../restart/health/health';
import { STILL_WAITING_INTERVAL_MS } from '../await/await-cursor';
import type { AllocationOutcome } from '../kit/outcomes';

/** Checks are read at most this often per allocation (Nomad has no blocking query for them). */
export const MAX_CHECK_POLL_MS = 2_000;
/** ... and never more often than this, however short `-min-healthy-time` is. */
export const MIN_CHECK_POLL_MS = 250;

/**
 * How often one allocation's checks may be read: four looks per `-min-healthy-time` (so a
 * failure between two looks restarts the count), between 250 ms and 2 s.
 */
export function checkPollMs(minHealthyTimeNs: number): number {
  return Math.min(MAX_CHECK_POLL_MS, Math.max(MIN_CHECK_POLL_MS, minHealthyTimeNs / 1e6 / 4));
}

/** One allocation awaited to be healthy. */
export interface WatchedAllocation {
  /** The planned (original) allocation, which outcomes and errors are about. */
  readonly allocationId: string;
  readonly group: string;
  /** The allocation judged: the same one in place, its running replacement with `-reschedule`. */
  readonly watchedId: string;
  /** Unix ms (this process's clock) since when it has been passing without a break. */
  readonly passingSince?: number;
  /** The newest task start seen while passing: another one means a task started again meanwhile. */
  readonly passingStartNs?: number;
  /** Why it is not healthy, as last judged (quoted by `Still waiting` and the deadline error). */
  readonly reason: string;
  /** Unix ms before which its checks are not read again. */
  readonly nextCheckReadAt: number;
  /** Unix ms of its next `Still waiting` line. */
  readonly nextStillWaitingAt: number;
  /** Its Consul checks (by key) seen not healthy since the restart: their next `passing` is fresh. */
  readonly consulSeenNotHealthy?: readonly string[];
  /** Its tasks' latest start (Unix ns, Nomad's) and when this process first saw it (Unix ms, ours). */
  readonly consulStartSeen?: { readonly startNs: number; readonly at: number };
}

/** Where a batch's health wait stands. JSON-serialisable; its size grows with the batch, not the job. */
export interface HealthCursor {
  readonly batchIndex: number;
  /** Unix ms when the wait began: `-healthy-deadline` and the 60 s lines count from here. */
  readonly startedAt: number;
  /** In place: restarts seen at or after this Unix ms are ours (a restarted task must start again). */
  readonly restartedSinceMs?: number;
  /** `X-Nomad-Index` of the last job allocations answer (0: not read yet). */
  readonly allocationsIndex: number;
  /** Lifecycle roles by `<job version>/<group>`, each read once. */
  readonly roles: Readonly<Record<string, Readonly<Record<string, TaskRole>>>>;
  /** The Consul checks waited for by `<job version>/<group>`, read with the roles (Consul services only). */
  readonly consulChecks?: Readonly<Record<string, readonly DeclaredConsulCheck[]>>;
  /** `X-Consul-Index` of the last answer by Consul service (Consul services only). */
  readonly consulIndexes?: Readonly<Record<string, string>>;
  readonly watching: readonly WatchedAllocation[];
  /** The batch's outcomes as the restart (or the replacement wait) settled them. */
  readonly base: readonly AllocationOutcome[];
  /** Outcomes the wait changed: allocations that failed the gate. */
  readonly failed: Readonly<Record<string, AllocationOutcome>>;
}

/**
 * The cursor that starts a batch's health wait: every allocation restarted (or replaced) is
 * watched; one that already failed is not.
 */
export function createHealthCursor(
  batchIndex: number,
  base: readonly AllocationOutcome[],
  options: {
    now: number;
    restartedSinceMs?: number | undefined;
    /** @default STILL_WAITING_INTERVAL_MS (Nomad's 60 s) */
    stillWaitingIntervalMs?: number;
  },
): HealthCursor {
  const interval = options.stillWaitingIntervalMs ?? STILL_WAITING_INTERVAL_MS;
  const watching: WatchedAllocation[] = base.flatMap((outcome): WatchedAllocation[] => {
    if (outcome.status !== 'restarted' && outcome.status !== 'replaced') return [];
    return [
      {
        allocationId: outcome.allocationId,
        group: outcome.group,
        watchedId: outcome.status === 'replaced' ? outcome.replacementId : outcome.allocationId,
        reason: 'not looked at yet',
        nextCheckReadAt: options.now,
        nextStillWaitingAt: options.now + interval,
      },
    ];
  });
  return {
    batchIndex,
    startedAt: options.now,
    ...(options.restartedSinceMs === undefined ? {} : { restartedSinceMs: options.restartedSinceMs }),
    allocationsIndex: 0,
    roles: {},
    watching,
    base: [...base],
    failed: {},
  };
}

/** The batch's outcomes once the wait is over: the base, with the allocations that failed the gate. */
export function healthOutcomes(cursor: HealthCursor): AllocationOutcome[] {
  return cursor.base.map((outcome) => cursor.failed[outcome.allocationId] ?? outcome);
}
