/**
 * The fleet input's consumer fields (`usesVariables`, `usesSecrets`, `stale`; the flags
 * `-uses-variable`, `-uses-secret`, `-stale`): what each accepts, and the checks made before
 * anything is touched, worded with the flag and the value as the other fleet fields are.
 */
import * as z from 'zod';
import { goQuote } from '../go/quote';
import { RestartValidationError } from '../restart/errors';

/** What each consumer field accepts, in words; used in the schema and in error messages. */
export const CONSUMER_ALLOWED = {
  usesVariables:
    'Nomad variable paths the jobs must read (a trailing "*" selects every path under a prefix), e.g. ["nomad/jobs/shared/db"]',
  usesSecrets:
    'Vault secret paths the jobs\' templates must read, as "vault kv get" takes them or as a template writes them (a trailing "*" selects a prefix)',
  stale:
    'with usesVariables: restart only allocations that started before the newest change of the variables each job reads (true or false)',
} as const;

/** The consumer fields of the fleet input's schema. */
export const consumerFieldsShape = {
  usesVariables: z.array(z.string()).optional().describe(CONSUMER_ALLOWED.usesVariables),
  usesSecrets: z.array(z.string()).optional().describe(CONSUMER_ALLOWED.usesSecrets),
  stale: z.boolean().optional().describe(CONSUMER_ALLOWED.stale),
};

/** The paths of one `-uses-*` field, each checked: not empty, and a `*` only at the end. */
function checkPaths(
  values: readonly string[] | undefined,
  flag: string,
  field: string,
): string[] | undefined {
  if (values === undefined) return undefined;
  for (const value of values) {
    const path = value.trim();
    if (path === '' || path === '/') {
      throw new RestartValidationError(
        `Invalid -${flag} value ${goQuote(value)}: expected a path, such as "nomad/jobs/shared/db", or a prefix ending in "*"`,
        { field },
      );
    }
    if (path.slice(0, -1).includes('*')) {
      throw new RestartValidationError(
        `Invalid -${flag} value ${goQuote(value)}: only a trailing "*" selects (every path under the prefix before it)`,
        { field },
      );
    }
  }
  return [...new Set(values.map((v) => v.trim()))];
}

/** The consumer fields, checked. `startedBefore` is the input's own, which `-stale` replaces. */
export function consumerFieldsOf(input: {
  readonly usesVariables?: readonly string[] | undefined;
  readonly usesSecrets?: readonly string[] | undefined;
  readonly stale?: boolean | undefined;
  readonly startedBefore?: unknown;
}): { usesVariables?: string[]; usesSecrets?: string[]; stale: boolean } {
  const usesVariables = checkPaths(input.usesVariables, 'uses-variable', 'usesVariables');
  const usesSecrets = checkPaths(input.usesSecrets, 'uses-secret', 'usesSecrets');
  const stale = input.stale === true;
  if (stale && (usesVariables === undefined || usesVariables.length === 0)) {
    throw new RestartValidationError(
      "Invalid -stale: it needs -uses-variable <path>: each job's time is the newest change of the variables it reads there",
      { field: 'stale' },
    );
  }
  if (stale && input.startedBefore !== undefined) {
    throw new RestartValidationError(
      `Invalid -stale with -started-before ${goQuote(String(input.startedBefore))}: both give the time allocations must have started after; give one`,
      { field: 'stale' },
    );
  }
  return {
    ...(usesVariables === undefined || usesVariables.length === 0 ? {} : { usesVariables }),
    ...(usesSecrets === undefined || usesSecrets.length === 0 ? {} : { usesSecrets }),
    stale,
  };
}
