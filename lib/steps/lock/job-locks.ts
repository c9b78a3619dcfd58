/**
 * What each lock step holds the job with: the lock, its lease, and who may keep it.
 */
import type { LeaseRequest, LockKey } from '../../stores/job-lock';
import type { PairedJobLock } from '../../stores/paired-job-lock';
import type { RunStatusSource } from '../../stores/run-status';
import type { PlanRef, RunRef } from '../../workflow/payloads';

/** The job's locks as one invocation holds them. */
export interface JobLocks {
  /** The run's own lock (memory or DynamoDB), paired with the job's shared lock in Nomad. */
  readonly lock: PairedJobLock;
  /** Whether a lock's holder still runs: Step Functions on AWS, this process's runs locally. */
  readonly runs: RunStatusSource;
  /** The lease every take and renewal asks for, in seconds. */
  readonly leaseSeconds: number;
}

/** The job a plan names: the key of its lock. */
export const lockKeyOf = (plan: PlanRef): LockKey => ({ namespace: plan.namespace, jobId: plan.jobId });

/** The lease `run` asks for, for `ttlSeconds`, naming the execution running it now. */
export const leaseOf = (run: RunRef, ttlSeconds: number): LeaseRequest => ({
  owner: run.runId,
  ttlSeconds,
  execution: run.executionId,
});
