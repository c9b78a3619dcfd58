/**
 * The messages of a refused execution input: the first schema problem turned into words that name
 * the field, quote the value and say what is allowed. Shared by every execution input (one job's in
 * `input.ts`, a fleet's in `lib/fleet/input.ts`).
 */
import type * as z from 'zod';
import { RestartValidationError } from './errors';
import { JOB_SCOPE_ALLOWED } from './job-scope';

const describe = (value: unknown): string => (value === undefined ? 'nothing' : JSON.stringify(value));

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let value = raw;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * Turns the first schema problem into a message that names the field, quotes the value and says
 * what is allowed. Shared by every execution input (one job, a fleet).
 * @param allowed what each top-level field accepts, in words
 * @param expected what the whole input is, for a value that is not an object
 */
export function inputSchemaError(
  raw: unknown,
  issue: z.core.$ZodIssue,
  allowed: Readonly<Record<string, string>>,
  expected: string,
): RestartValidationError {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return new RestartValidationError(`Invalid input: got ${describe(raw)}, expected ${expected}`);
  }
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    const [top] = issue.path;
    if (top !== undefined) {
      const name = String(top);
      return new RestartValidationError(
        `Unknown input field ${JSON.stringify(`${name}[${key}]`)}: allowed fields are ${Object.keys(NESTED_ALLOWED[name] ?? {}).join(', ')}`,
        { field: name },
      );
    }
    return new RestartValidationError(
      `Unknown input field ${JSON.stringify(key)}: allowed fields are ${Object.keys(allowed).join(', ')}`,
      { field: key },
    );
  }
  const [top, ...rest] = issue.path;
  const field = String(top);
  const name = field + rest.map((k) => `[${String(k)}]`).join('');
  return new RestartValidationError(
    `Invalid input field ${JSON.stringify(name)}: got ${describe(valueAt(raw, issue.path))}, expected ${nestedAllowed(allowed, field, rest)}`,
    { field },
  );
}

/** The words of the nested objects' fields (`fleet`, `scope`). */
const NESTED_ALLOWED: Readonly<Record<string, Readonly<Record<string, string>>>> = JOB_SCOPE_ALLOWED;

function nestedAllowed(
  allowed: Readonly<Record<string, string>>,
  field: string,
  rest: readonly PropertyKey[],
): string {
  if (rest.length === 0) return allowed[field] ?? 'a valid value';
  const nested = NESTED_ALLOWED[field];
  // A list of strings (groups, tasks, nodes...): its element is what is wrong.
  if (nested === undefined) return 'a string';
  const words = nested[String(rest[0])] ?? 'a valid value';
  return rest.length > 1 ? `a non-empty string in ${words}` : words;
}
