/**
 * What a restart plan is: the job, the ordered allocations cut into batches, what was skipped.
 * Plain JSON types, so the plan store, the dry run and every step share them (the plan is made
 * by lib/steps/plan/plan/plan.ts, which talks to Nomad).
 */
import type { EarlierRunWork } from './earlier-work';
import type { PlannedAllocation, SkippedAllocation } from './filter';
import type { SkippedCounts } from './run-summary';

/** The job a plan is for: what every later step needs, and nothing large. */
export interface PlannedJob {
  readonly id: string;
  /** Namespace for every later request; `undefined` leaves it to the client. */
  readonly namespace?: string;
  /** The job's type from the job info call; used when an allocation's own job version was pruned. */
  readonly type?: string;
  /**
   * Whether `Multiregion.Regions` is non-empty (the question of Nomad's `command/job_restart.go`
   * `shouldRestartMultiregion`).
   */
  readonly multiregion: boolean;
}

/** How many allocations the plan saw and kept. */
export interface PlanCounts {
  /** Allocations the job had (all statuses). */
  readonly listed: number;
  /** Allocations to restart. */
  readonly eligible: number;
  readonly skipped: number;
  /** The skipped allocations by reason (the run's summary reports them). */
  readonly skippedBy: SkippedCounts;
}

/**
 * A restart plan: the ordered allocations cut into batches. JSON-serialisable, so the
 * workflow can keep it in a plan store and read one batch back by index.
 */
export interface RestartPlan {
  readonly kind: 'plan';
  readonly job: PlannedJob;
  /** The batch size after resolving `n%` against the eligible count. */
  readonly batchSize: number;
  readonly batches: PlannedAllocation[][];
  readonly skipped: SkippedAllocation[];
  readonly counts: PlanCounts;
  /**
   * With `-wait-healthy`: the Consul services whose checks the gate reads (declared by the
   * restarted allocations' job versions, see health/consul-health.ts); absent when there are none, and
   * Consul is then never contacted.
   */
  readonly consulServices?: readonly string[];
  /** `-max-errors` resolved against the eligible count; absent when not set. */
  readonly maxErrors?: number;
  /** Unix ms when the plan was made. */
  readonly createdAt: number;
  /** The unfinished earlier run this plan resumes, and what it (and any it resumed) did. */
  readonly resumed?: EarlierRunWork;
}

/** The plan found nothing to restart (`No allocations to restart`, exit 0). */
export interface NothingToRestart {
  readonly kind: 'nothing-to-restart';
  readonly job: PlannedJob;
  readonly counts: PlanCounts;
}

/** The user answered "no" to the multi-region question (`Job restart canceled.`, exit 0). */
export interface PlanCanceled {
  readonly kind: 'canceled';
  readonly job: PlannedJob;
}

export type PlanResult = RestartPlan | NothingToRestart | PlanCanceled;
