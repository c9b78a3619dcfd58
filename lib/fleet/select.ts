/**
 * Which listed jobs a fleet restarts, and why the others are skipped: the kinds that cannot be
 * restarted (they are reported, never failed) and the jobs with nothing running in scope.
 */
import type { FleetSkipReason } from './events';

/**
 * The fields of Nomad's job list stub (`GET /v1/jobs`) the rules read. Structural, so the fleet
 * domain needs no Nomad client types; any missing field reads as Nomad's zero value.
 */
export interface ListedJob {
  readonly ID: string;
  readonly Namespace?: string;
  readonly Type?: string;
  readonly Status?: string;
  readonly Stop?: boolean;
  readonly ParentID?: string;
  readonly Periodic?: boolean;
  readonly ParameterizedJob?: boolean;
  readonly Priority?: number;
}

/** A job's verdict: restart it (with this many allocations in scope), or skip it for a reason. */
export type JobVerdict =
  | { readonly kind: 'restart'; readonly allocations: number }
  | { readonly kind: 'skip'; readonly reason: FleetSkipReason };

/**
 * Classifies one listed job. First rule that applies wins, from what the job is to what runs:
 * a dispatched or periodic child (finite batch work its parent launched, which a filter on the
 * parent's meta also selects), a periodic or parameterized parent (no allocations of its own),
 * sysbatch (finite work on every node: a restart would rerun it, as the one-job command refuses
 * `-reschedule` for it), a stopped or dead job, then no running allocation in scope.
 *
 * @param runningInScope the job's running allocations on the nodes in scope
 */
export function classifyJob(job: ListedJob, runningInScope: number): JobVerdict {
  if (job.ParentID !== undefined && job.ParentID !== '') {
    return skip({ kind: 'child', parentId: job.ParentID });
  }
  if (job.Periodic === true) return skip({ kind: 'periodic' });
  if (job.ParameterizedJob === true) return skip({ kind: 'parameterized' });
  if (job.Type === 'sysbatch') return skip({ kind: 'sysbatch' });
  if (job.Stop === true) return skip({ kind: 'stopped', status: 'stopped' });
  if (job.Status === 'dead') return skip({ kind: 'stopped', status: 'dead' });
  if (runningInScope === 0) return skip({ kind: 'nothing-in-scope' });
  return { kind: 'restart', allocations: runningInScope };
}

const skip = (reason: FleetSkipReason): JobVerdict => ({ kind: 'skip', reason });

/**
 * Whether the plan needs to count the job's allocations at all: a job skipped for its kind is
 * skipped whatever runs, so its allocations need not be read.
 */
export function kindAllowsRestart(job: ListedJob): boolean {
  return classifyJob(job, 1).kind === 'restart';
}
