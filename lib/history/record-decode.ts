/**
 * Reading a history item back into a {@link RunRecord}: anyone who may write the variable may put
 * anything in it (a newer version's record, an item written by hand with `nomad var put`), so
 * every field is checked and an item that is not a record of this version is refused, for the
 * reader to count as unreadable and leave alone.
 */
import { RECORD_VERSION, type RecordOutcome, type RunRecord } from './record';

/** Every outcome a record may carry; a `Record` so that a new outcome must be added here. */
const OUTCOMES: Readonly<Record<RecordOutcome, true>> = {
  running: true,
  succeeded: true,
  canceled: true,
  failed: true,
  unrecoverable: true,
  'stopped-at-window-end': true,
  'skipped-job-locked': true,
  aborted: true,
  'timed-out': true,
  error: true,
};

const isOutcome = (value: unknown): value is RecordOutcome =>
  typeof value === 'string' && Object.hasOwn(OUTCOMES, value);

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isCount = (value: unknown): boolean => Number.isSafeInteger(value) && (value as number) >= 0;

const isTime = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value);

/** `o[key]` is absent or passes `check`. */
const optional = (o: Fields, key: string, check: (value: unknown) => boolean): boolean =>
  o[key] === undefined || check(o[key]);

const isString = (value: unknown): boolean => typeof value === 'string';

function isCounts(value: unknown): boolean {
  if (!isObject(value)) return false;
  return ['planned', 'restarted', 'failed', 'skipped', 'notReached'].every((key) => isCount(value[key]));
}

function isJobOutcomes(value: unknown): boolean {
  return (
    isObject(value) && Object.entries(value).every(([k, n]) => isOutcome(k) && k !== 'running' && isCount(n))
  );
}

/** Whether `o` has every field of a {@link RunRecord} of this version, each of its type. */
function isRecord(o: Fields): boolean {
  return (
    o['version'] === RECORD_VERSION &&
    ['runId', 'namespace', 'jobId', 'startedBy', 'options'].every((key) => isString(o[key])) &&
    o['runId'] !== '' &&
    (o['kind'] === 'job' || o['kind'] === 'fleet') &&
    (o['engine'] === 'terminal' || o['engine'] === 'aws') &&
    isOutcome(o['outcome']) &&
    isCounts(o['counts']) &&
    isTime(o['startedAt']) &&
    Array.isArray(o['errors']) &&
    o['errors'].every(isString) &&
    isCount(o['omittedErrors']) &&
    ['reason', 'fleetRunId', 'stoppedBy', 'executionArn'].every((key) => optional(o, key, isString)) &&
    ['endedAt', 'windowEnd'].every((key) => optional(o, key, isTime)) &&
    optional(o, 'jobOutcomes', isJobOutcomes)
  );
}

/**
 * The record in history item `runId` = `value`; `undefined` when it is not one (not JSON, another
 * version, a field missing or of another type, or a record of another run than its key says).
 */
export function decodeRecord(runId: string, value: string): RunRecord | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (!isObject(parsed) || !isRecord(parsed) || parsed['runId'] !== runId) return undefined;
  return parsed as unknown as RunRecord;
}
