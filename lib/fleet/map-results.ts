/**
 * The Distributed Map's results as Step Functions' `ResultWriter` writes them to S3 (and the local
 * engine to the plan store, in the same layout): a `manifest.json` listing the result files by
 * status, each file a JSON array of the item executions, with their input and output as JSON
 * strings. See https://docs.aws.amazon.com/step-functions/latest/dg/input-output-resultwriter.html.
 * Decoded here from `unknown`: a file is data from outside the process.
 */
import { NamedError } from '../errors/named-error';

/** One result file's place (`SUCCEEDED_0.json`, ...). */
export interface ResultFileRef {
  readonly Key: string;
}

/** `manifest.json`: the fields the summary reads (AWS writes the bucket and the Map Run too). */
export interface ResultManifest {
  readonly ResultFiles: {
    readonly SUCCEEDED: readonly ResultFileRef[];
    readonly FAILED: readonly ResultFileRef[];
    readonly PENDING: readonly ResultFileRef[];
  };
}

/** One item execution of a result file: the fields the summary reads (AWS writes more). */
export interface MapResultEntry {
  readonly ExecutionArn: string;
  /** `SUCCEEDED`, `FAILED`, `ABORTED`, `TIMED_OUT`, ... */
  readonly Status: string;
  /** The item execution's input, a JSON string. */
  readonly Input?: string;
  /** The item execution's output, a JSON string (succeeded executions). */
  readonly Output?: string;
  readonly Error?: string;
  readonly Cause?: string;
}

/**
 * A document of the results that is not what AWS writes. (Here rather than in a `lib/fleet/errors.ts`
 * while the fleet's parts are built side by side; it belongs there.)
 */
export class FleetResultDecodeError extends NamedError {}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const optionalString = (value: unknown, field: string, where: string): string | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string')
    throw new FleetResultDecodeError(`${where}: ${field} is ${JSON.stringify(value)}, not a string`);
  return value;
};

/**
 * `$.mapResult`, the Map state's output with a `ResultWriter` (`{MapRunArn, ResultWriterDetails:
 * {Bucket, Key}}`): the manifest's key, or `undefined` when the Map left no output (it failed).
 */
export function manifestKeyOf(mapResult: unknown): string | undefined {
  if (!isObject(mapResult)) return undefined;
  const details = mapResult['ResultWriterDetails'];
  if (!isObject(details)) return undefined;
  return optionalString(details['Key'], 'ResultWriterDetails.Key', 'the Map result');
}

/** Decodes `manifest.json`; a status with no file may be absent. */
export function decodeManifest(value: unknown, key: string): ResultManifest {
  if (!isObject(value) || !isObject(value['ResultFiles']))
    throw new FleetResultDecodeError(`${key}: not a ResultWriter manifest (no ResultFiles)`);
  const files = value['ResultFiles'];
  const refs = (status: string): ResultFileRef[] => {
    const list = files[status] ?? [];
    if (!Array.isArray(list)) throw new FleetResultDecodeError(`${key}: ResultFiles.${status} is not a list`);
    return list.map((ref, i) => {
      const Key = isObject(ref) ? optionalString(ref['Key'], 'Key', `${key} ${status}[${i}]`) : undefined;
      if (Key === undefined)
        throw new FleetResultDecodeError(`${key}: ResultFiles.${status}[${i}] has no Key`);
      return { Key };
    });
  };
  return { ResultFiles: { SUCCEEDED: refs('SUCCEEDED'), FAILED: refs('FAILED'), PENDING: refs('PENDING') } };
}

/** Decodes a result file (`SUCCEEDED_0.json`, `FAILED_0.json`, ...). */
export function decodeResultFile(value: unknown, key: string): MapResultEntry[] {
  if (!Array.isArray(value)) throw new FleetResultDecodeError(`${key}: not a JSON array of executions`);
  return value.map((entry, i) => {
    const where = `${key}[${i}]`;
    if (!isObject(entry)) throw new FleetResultDecodeError(`${where}: not an execution`);
    const ExecutionArn = optionalString(entry['ExecutionArn'], 'ExecutionArn', where);
    const Status = optionalString(entry['Status'], 'Status', where);
    if (ExecutionArn === undefined || Status === undefined)
      throw new FleetResultDecodeError(`${where}: ExecutionArn and Status are required`);
    const pick = (field: 'Input' | 'Output' | 'Error' | 'Cause') => {
      const text = optionalString(entry[field], field, where);
      return text === undefined ? {} : { [field]: text };
    };
    return { ExecutionArn, Status, ...pick('Input'), ...pick('Output'), ...pick('Error'), ...pick('Cause') };
  });
}

/** `JSON.parse`, or `undefined` for text that is not JSON (a Fail state's plain cause). */
export function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
