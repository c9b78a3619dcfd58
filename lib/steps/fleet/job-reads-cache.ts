/**
 * What each job's specification says its tasks read (`jobReads`), kept in the plan store between a
 * fleet's runs under the job's `JobModifyIndex`: a scheduled `-uses-variable` run (the rotation
 * recipe fires every 15 minutes) then reads from Nomad only the specifications that changed since
 * the run before, not every candidate's every time. Nomad moves `JobModifyIndex` at every change of
 * the job's specification (a new version, a scaling, a stop), so an entry never outlives what it
 * was read from. A terminal run's plan store lives for that run only: it starts empty each time.
 */
import type { JobReads } from '../../fleet/consumers';
import { FLEET_JOB_READS_KEY } from '../../fleet/items';
import { getIfPresent, type PlanStore } from '../../stores/plan-store';

/** One job's reads, as of its specification at `index`. */
export interface CachedJobReads {
  /** The job's `JobModifyIndex` when its specification was read. */
  readonly index: number;
  readonly reads: JobReads;
}

/** The document's layout; another version is read as empty (the next run writes this one). */
interface JobReadsDocument {
  readonly version: 1;
  readonly jobs: Readonly<Record<string, CachedJobReads>>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `value` has the shape this module writes: anything else is not trusted, and re-read. */
function isCachedJobReads(value: unknown): value is CachedJobReads {
  if (!isObject(value) || typeof value['index'] !== 'number' || !isObject(value['reads'])) return false;
  const reads = value['reads'];
  return ['variables', 'secrets', 'opaque'].every((field) => Array.isArray(reads[field]));
}

/** The cached reads by job key (`jobKey`), or none when the store has no such document. */
export async function loadJobReads(store: PlanStore): Promise<Map<string, CachedJobReads>> {
  const document = await getIfPresent<unknown>(store, FLEET_JOB_READS_KEY);
  const entries = new Map<string, CachedJobReads>();
  if (!isObject(document) || document['version'] !== 1 || !isObject(document['jobs'])) return entries;
  for (const [key, value] of Object.entries(document['jobs']))
    if (isCachedJobReads(value)) entries.set(key, value);
  return entries;
}

/** Writes the reads of this run's candidates (jobs gone since drop out with it). */
export async function saveJobReads(
  store: PlanStore,
  entries: ReadonlyMap<string, CachedJobReads>,
): Promise<void> {
  const document: JobReadsDocument = { version: 1, jobs: Object.fromEntries(entries) };
  await store.put(FLEET_JOB_READS_KEY, document);
}
