/** Reading a control request's JSON body: fields, targets, and 400s that name the bad field. */
import { SimHttpError } from './errors';
import type { SimTarget } from './model/behaviours';

/** A field of a JSON body, under any of its accepted names. */
export function field(body: unknown, ...names: string[]): unknown {
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  for (const name of names) if (name in record) return record[name];
  return undefined;
}

/** A 400 naming the field, its value and what is allowed. */
export function badField(name: string, value: unknown, expected: string): SimHttpError {
  return new SimHttpError(400, `Invalid ${name} ${JSON.stringify(value)}: expected ${expected}`);
}

/** `{"allocationId": "..."}` or `{"jobId": "...", "namespace"?: "..."}`. */
export function targetFromBody(body: unknown): SimTarget {
  const allocationId = field(body, 'allocationId');
  const jobId = field(body, 'jobId');
  const namespace = field(body, 'namespace');
  if (typeof allocationId === 'string') return { allocationId };
  if (typeof jobId !== 'string') throw badField('target', body, 'an "allocationId" or a "jobId" (string)');
  if (namespace !== undefined && typeof namespace !== 'string')
    throw badField('namespace', namespace, 'a string');
  return namespace === undefined ? { jobId } : { jobId, namespace };
}
