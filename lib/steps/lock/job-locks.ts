/**
 * What each lock step holds the job with: the lock, its lease, and who may keep it.
 */
import type { PairedJobLock } from '../../stores/paired-job-lock';
import type { RunStatusSource } from '../../stores/run-status';

/** The job's locks as one invocation holds them. */
export interface JobLocks {
  /** The run's own lock (memory or DynamoDB), paired with the job's shared lock in Nomad. */
  readonly lock: PairedJobLock;
  /** Whether a lock's holder still runs: Step Functions on AWS, this process's runs locally. */
  readonly runs: RunStatusSource;
  /** The lease every take and renewal asks for, in seconds. */
  readonly leaseSeconds: number;
}
