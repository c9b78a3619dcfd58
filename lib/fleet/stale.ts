/**
 * `-stale`: each consumer job's own time, the newest change (`ModifyTime`) among the variables it
 * reads that the `-uses-variable` paths select, from the variables' metadata listed once per path
 * and namespace (`GET /v1/vars?prefix=`, which needs only `list`). An allocation of the job that
 * started before that time still holds an older value.
 */
import { coversPath, type PathPattern, type VariableRead } from './consumers';

/** A variable as the listing shows it: where, and when it last changed (Unix ms). */
export interface ListedVariable {
  readonly namespace: string;
  readonly path: string;
  readonly modifiedAt: number;
}

/** One listing the plan makes: a `-uses-variable` path in one namespace. */
export interface VariableListing {
  readonly namespace: string;
  readonly pattern: PathPattern;
}

/** `pattern` as the user wrote it: the path, with `*` when it is a prefix. */
export const patternText = (pattern: PathPattern) => (pattern.prefix ? `${pattern.path}*` : pattern.path);

/** A listing's key in the plan's maps. */
export const listingKey = (listing: VariableListing) =>
  `${listing.namespace}\u0000${patternText(listing.pattern)}`;

/**
 * Nomad's `ModifyTime` (Unix nanoseconds) in ms, rounded up: a number that large is not exact in a
 * double, and rounding up only ever makes an allocation started in the same millisecond as the
 * change stale (one restart more), never fresh (a process left with the old value).
 */
export const nanosToMs = (ns: number): number => Math.ceil(ns / 1e6);

/** The listings a consumer job needs: each pattern, in each namespace its matching reads name. */
export function listingsFor(
  jobNamespace: string,
  reads: readonly VariableRead[],
  patterns: readonly PathPattern[],
): VariableListing[] {
  const namespaces = [...new Set(reads.map((read) => read.namespace ?? jobNamespace))];
  return namespaces.flatMap((namespace) => patterns.map((pattern) => ({ namespace, pattern })));
}

/**
 * The job's time: the newest `modifiedAt` among the listed variables it reads (`reads`, in its
 * namespace unless a read names one) that a pattern selects; `undefined` when it reads none of them.
 */
export function staleTime(
  jobNamespace: string,
  reads: readonly VariableRead[],
  patterns: readonly PathPattern[],
  listed: readonly ListedVariable[],
): number | undefined {
  let newest: number | undefined;
  for (const variable of listed) {
    if (!patterns.some((pattern) => coversPath(pattern, variable.path))) continue;
    const read = reads.some(
      (r) => (r.namespace ?? jobNamespace) === variable.namespace && coversPath(r, variable.path),
    );
    if (read && (newest === undefined || variable.modifiedAt > newest)) newest = variable.modifiedAt;
  }
  return newest;
}
