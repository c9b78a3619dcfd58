/**
 * How every job a fleet started ended, read back from the Distributed Map's results in the plan
 * store (AWS's ResultWriter layout, `lib/fleet/map-results.ts`).
 */
import { type FleetJobEnd, jobEndOf } from '../../fleet/job-end';
import {
  decodeManifest,
  decodeResultFile,
  type MapResultEntry,
  manifestKeyOf,
} from '../../fleet/map-results';
import type { PlanStore } from '../../stores/plan-store';

const MANIFEST = '/manifest.json';

/**
 * The manifests of the fleet's Map Run: the one its output names, else (the Map failed, and its
 * Catch put the error where the output would be) whatever the ResultWriter left under the
 * results prefix. None when the Map failed before writing any.
 */
async function manifestKeys(store: PlanStore, mapResult: unknown, resultsPrefix: string): Promise<string[]> {
  const named = manifestKeyOf(mapResult);
  if (named !== undefined) return [named];
  const keys = await store.list(`${resultsPrefix}/`);
  return keys.filter((key) => key.endsWith(MANIFEST));
}

/**
 * Each started job's end, one per job (a later manifest's word wins: a redriven Map Run writes
 * its own). `PENDING` files list items that never started: those jobs were not reached, which the
 * summary tells from their absence here.
 */
export async function readJobEnds(
  store: PlanStore,
  mapResult: unknown,
  resultsPrefix: string,
): Promise<FleetJobEnd[]> {
  const ends = new Map<string, FleetJobEnd>();
  for (const manifestKey of await manifestKeys(store, mapResult, resultsPrefix)) {
    const manifest = decodeManifest(await store.get(manifestKey), manifestKey);
    const files = [...manifest.ResultFiles.SUCCEEDED, ...manifest.ResultFiles.FAILED];
    for (const { Key } of files) {
      const entries: MapResultEntry[] = decodeResultFile(await store.get(Key), Key);
      for (const end of entries.map(jobEndOf)) ends.set(`${end.namespace}\u0000${end.job}`, end);
    }
  }
  return [...ends.values()];
}
