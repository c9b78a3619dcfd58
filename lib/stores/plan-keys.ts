/**
 * Every key of the plan store, built in one place: each run's documents under its own prefix
 * (`runs/<execution name>/`, tagged and expired once the run ends), and the documents that outlive
 * runs (a job's record, a schedule's carry-over) outside it.
 *
 * A run's documents:
 * - `plan.json`: the `RestartPlan` (ordered allocations cut into batches);
 * - `batch-<i>.json`: the batch journal (idempotent re-runs of "Restart batch");
 * - `cursor-<i>.json`: the await cursor (its size grows with the batch, so not in the state);
 * - `result-<i>.json`: the settled batch (errors, failed and restarted counts, outcomes);
 * - `health-<i>.json`: the health wait's cursor (`-wait-healthy`);
 * - `run.json`: the run's flat error list, the batches already counted, and why it stopped;
 * - `plan-events.json`: the plan's lines, held while the multi-region question is open;
 * - `events/<request>-<field>.json`: events too large for the state, kept aside.
 */

/**
 * Key prefix of the documents that outlive a run: what earlier runs of a restart already did
 * (lib/steps/plan/carry-over.ts). Outside every run's prefix, so they never expire with a run.
 */
export const CARRY_OVER_PREFIX = 'maintenance/';

/** A key part with anything outside `[A-Za-z0-9._-]` replaced: safe for S3 and file names. */
const safe = (part: string) => part.replace(/[^A-Za-z0-9._-]/g, '_');

/**
 * Turns an execution ARN (or any run id) into a key prefix safe for S3 and file names:
 * the execution name with anything outside `[A-Za-z0-9._-]` replaced, under `runs/`.
 */
export function runKeyPrefix(runId: string): string {
  const name = runId.split(':').pop() ?? runId;
  return `runs/${safe(name)}/`;
}

const inRun = (runId: string, name: string) => `${runKeyPrefix(runId)}${name}`;
const journalName = (batch: number) => `batch-${batch}.json`;

/** The plan-store keys, by document. */
export const planKeys = {
  plan: (runId: string) => inRun(runId, 'plan.json'),
  batchJournal: (runId: string, batch: number) => inRun(runId, journalName(batch)),
  /** A batch journal of the run whose plan is at `planKey` (as a job's record names it). */
  batchJournalBesidePlan: (planKey: string, batch: number) =>
    `${planKey.slice(0, planKey.lastIndexOf('/') + 1)}${journalName(batch)}`,
  awaitCursor: (runId: string, batch: number) => inRun(runId, `cursor-${batch}.json`),
  batchResult: (runId: string, batch: number) => inRun(runId, `result-${batch}.json`),
  healthCursor: (runId: string, batch: number) => inRun(runId, `health-${batch}.json`),
  runRecord: (runId: string) => inRun(runId, 'run.json'),
  heldEvents: (runId: string) => inRun(runId, 'plan-events.json'),
  asideEvents: (runId: string, requestId: string, field: string) =>
    inRun(runId, `events/${requestId}-${field}.json`),
  /** A job's record: outside `runs/`, so it outlives every run's documents. */
  jobRun: (namespace: string, jobId: string) =>
    `jobs/${encodeURIComponent(namespace)}/${encodeURIComponent(jobId)}/run.json`,
  /** What the runs of one schedule did to one job, carried to its next window. */
  carryOver: (scheduleName: string, namespace: string, jobId: string) =>
    `${CARRY_OVER_PREFIX}${safe(scheduleName)}/${safe(namespace)}/${safe(jobId)}.json`,
} as const;
