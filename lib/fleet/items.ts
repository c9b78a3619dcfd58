/**
 * What a fleet run hands from its plan to each job: the item list the Distributed Map reads
 * (one item per job, written by "Plan fleet" to the plan store), the reference every one-job
 * execution started by a fleet carries, and where a fleet run keeps its documents.
 *
 * The one-job execution's input is the fleet's shared restart options merged (shallowly, by
 * `States.JsonMerge` in the item processor) with the item's `input`: so `input` holds only
 * fields of the one-job input (`lib/restart/input.ts`), and everything else an item needs sits
 * beside it.
 */

import type { FleetJobRef } from '../restart/job-scope';

// Defined beside the one-job input that carries them (a one-job run reads both); the fleet names
// them from here.
export type { FleetJobRef, JobScope } from '../restart/job-scope';

/** One line of a fleet's item list. */
export interface FleetJobItem {
  /** Merged into the shared options to make the one-job execution's input. */
  readonly input: {
    readonly job: string;
    readonly namespace: string;
    readonly fleet: FleetJobRef;
    /** With `-stale`: the job's own time (RFC 3339, ms), laid over the shared options. */
    readonly startedBefore?: string;
  };
  /**
   * The one-job execution's name: derived from the fleet run and the job, so a retried start
   * never starts a job twice (Step Functions refuses a second execution of the same name).
   */
  readonly executionName: string;
  /** Running allocations in scope when the fleet planned (the plan's and the summary's counts). */
  readonly allocations: number;
}

/** Where a fleet run's documents live in the plan store, under one prefix ended with the run. */
/**
 * What fleet runs keep for the runs after them, outside every run's own prefix (so no run's end
 * tags it for expiry, and no execution name can collide with it): each job's reads, by
 * `JobModifyIndex` (lib/steps/fleet/job-reads-cache.ts).
 */
export const FLEET_CACHE_PREFIX = 'fleet-cache/';
export const FLEET_JOB_READS_KEY = `${FLEET_CACHE_PREFIX}job-reads.json`;

export const fleetKeys = (runId: string) => {
  const prefix = `fleets/${runId}/`;
  return {
    prefix,
    /** The item list: a JSON array of {@link FleetJobItem}, read by the Distributed Map. */
    items: `${prefix}items.json`,
    /** The jobs selected but not restarted, with their reasons (a JSON array). */
    skipped: `${prefix}skipped.json`,
    /** Where the Distributed Map's ResultWriter writes (`<prefix>/<map run id>/manifest.json`, ...). */
    results: `${prefix}results`,
    /** The whole per-job report the summary points to (too large for an execution's output). */
    report: `${prefix}report.json`,
  };
};
