/**
 * Where a history lives in Nomad (a {@link HistoryPlace} ↔ its variable's path), for the run
 * history store (nomad-run-history.ts). A job's path encodes its ID as the lock's path does
 * (`runHistoryPath`), so listing the histories gives the job IDs back, except for an ID too long
 * for a path, which ends in a hash: its job ID is only in its records.
 */
import type { HistoryPlace } from '../history/run-history';
import { FLEET_HISTORY_PATH, RUN_HISTORY_PREFIX, runHistoryPath } from './shared-lock-settings';

/** Nomad's limit on a variable path: a path this long may end in a hash of the job ID. */
const MAX_PATH = 128;

/** The history variable's path of `place`. */
export function historyPath(place: HistoryPlace): string {
  return 'jobId' in place ? runHistoryPath(place.jobId) : FLEET_HISTORY_PATH;
}

/**
 * The place whose history variable is at `path` in `namespace`; `{ namespace, jobId: undefined }`
 * when the path is a job's that cannot be read back (it ends in a hash), `undefined` when the
 * path is no history's (under the prefix, but not written by `runHistoryPath`).
 */
export function placeOfPath(
  namespace: string,
  path: string,
): HistoryPlace | { readonly namespace: string; readonly jobId: undefined } | undefined {
  if (path === FLEET_HISTORY_PATH) return { namespace, fleets: true };
  if (!path.startsWith(RUN_HISTORY_PREFIX)) return undefined;
  const encoded = path.slice(RUN_HISTORY_PREFIX.length);
  if (path.length === MAX_PATH && /~[0-9a-f]{40}$/.test(encoded)) return { namespace, jobId: undefined };
  const jobId = decodeJobId(encoded);
  // A path that does not round-trip was not written by this version (or by hand): no history of ours.
  return jobId !== undefined && runHistoryPath(jobId) === path ? { namespace, jobId } : undefined;
}

/** The job ID `runHistoryPath` encoded as `encoded` (`~XX`: one UTF-8 byte in hex). */
function decodeJobId(encoded: string): string | undefined {
  const bytes: number[] = [];
  for (let i = 0; i < encoded.length; i++) {
    const c = encoded[i] as string;
    if (c !== '~') {
      bytes.push(c.charCodeAt(0));
      continue;
    }
    const hex = encoded.slice(i + 1, i + 3);
    if (!/^[0-9a-f]{2}$/.test(hex)) return undefined;
    bytes.push(Number.parseInt(hex, 16));
    i += 2;
  }
  const text = new TextDecoder('utf-8', { fatal: true });
  try {
    return bytes.length === 0 ? undefined : text.decode(Uint8Array.from(bytes));
  } catch {
    return undefined;
  }
}
