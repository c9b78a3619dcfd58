/**
 * A Distributed Map's child execution records and the files its `ResultWriter` writes, in the
 * layout Step Functions uses: under `<Prefix>/<map run id>/`, one JSON array per status
 * (`SUCCEEDED_0.json`, `FAILED_0.json` — aborted and timed-out children included, as their
 * `Status` says — and `PENDING_0.json` for items never started), and `manifest.json` listing them.
 * (https://docs.aws.amazon.com/step-functions/latest/dg/input-output-resultwriter.html)
 */
import type { LocalObjectStore } from '../types';

/** One child execution as the ResultWriter records it (Transformation `NONE`). */
export interface ItemExecutionRecord {
  readonly ExecutionArn: string;
  /** The child's input, as a JSON string. */
  readonly Input: string;
  readonly InputDetails: { readonly Included: boolean };
  readonly Name: string;
  /** The child's output, as a JSON string (succeeded children only). */
  readonly Output?: string;
  readonly OutputDetails?: { readonly Included: boolean };
  readonly Error?: string;
  readonly Cause?: string;
  readonly RedriveCount: number;
  readonly RedriveStatus: string;
  readonly RedriveStatusReason: string;
  readonly StartDate: string;
  readonly StateMachineArn: string;
  readonly Status: 'SUCCEEDED' | 'FAILED' | 'ABORTED' | 'TIMED_OUT';
  readonly StopDate: string;
}

/** An item the map run never started (it failed first): recorded with its input only. */
export interface PendingItemRecord {
  readonly Input: string;
  readonly Status: 'PENDING';
}

type ResultFile = { readonly Key: string; readonly Size: number };

/** `ResultWriter.Parameters` once resolved: `Bucket` and `Prefix`. */
function writerTarget(parameters: unknown): { bucket: string; prefix: string } {
  const record = (typeof parameters === 'object' && parameters !== null ? parameters : {}) as Record<
    string,
    unknown
  >;
  const bucket = record['Bucket'];
  const prefix = record['Prefix'] ?? '';
  if (typeof bucket !== 'string' || typeof prefix !== 'string') {
    throw new Error(
      `ResultWriter Parameters must hold a string Bucket and Prefix, got ${JSON.stringify(parameters)}`,
    );
  }
  return { bucket, prefix };
}

/**
 * Writes a map run's records to `store` and returns the Map state's result,
 * `{ MapRunArn, ResultWriterDetails: { Bucket, Key } }` (`Key`: the manifest).
 */
export async function writeResults(
  store: LocalObjectStore,
  parameters: unknown,
  mapRunArn: string,
  records: { executions: readonly ItemExecutionRecord[]; pending: readonly PendingItemRecord[] },
): Promise<{ MapRunArn: string; ResultWriterDetails: { Bucket: string; Key: string } }> {
  const { bucket, prefix } = writerTarget(parameters);
  const mapRunId = mapRunArn.split(':').at(-1) ?? mapRunArn;
  const folder = `${prefix === '' ? '' : `${prefix.replace(/\/$/, '')}/`}${mapRunId}/`;
  const groups = {
    SUCCEEDED: records.executions.filter((r) => r.Status === 'SUCCEEDED'),
    FAILED: records.executions.filter((r) => r.Status !== 'SUCCEEDED'),
    PENDING: records.pending,
  };
  const resultFiles: Record<string, ResultFile[]> = { FAILED: [], PENDING: [], SUCCEEDED: [] };
  for (const [status, group] of Object.entries(groups)) {
    if (group.length === 0) continue;
    const key = `${folder}${status}_0.json`;
    await store.put(key, group);
    resultFiles[status]?.push({ Key: key, Size: Buffer.byteLength(JSON.stringify(group), 'utf8') });
  }
  const manifest = `${folder}manifest.json`;
  await store.put(manifest, { DestinationBucket: bucket, MapRunArn: mapRunArn, ResultFiles: resultFiles });
  return { MapRunArn: mapRunArn, ResultWriterDetails: { Bucket: bucket, Key: manifest } };
}
