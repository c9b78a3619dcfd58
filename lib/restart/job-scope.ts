/**
 * What a one-job run started by a fleet carries beyond the one-job command's options: the fleet it
 * belongs to (`fleet`) and the allocations it may touch (`scope`). Defined here, in the one-job
 * domain, because the one-job input and plan read them; `lib/fleet/items.ts` re-exports the types
 * for the fleet's side (the fleet domain sits above this one and may import it, not the reverse).
 */
import * as z from 'zod';
import { RestartValidationError } from './errors';

/**
 * The allocations of a job a fleet run restarts: only those placed on these nodes. Absent: all of
 * the job's running allocations, as the one-job command. Node IDs are full (the fleet's plan
 * resolved `-node` prefixes); a node pool or datacenters are resolved by the job's own plan
 * through Nomad's node list. Several fields narrow together (a node must match each).
 */
export interface JobScope {
  readonly nodes?: readonly string[];
  readonly nodePool?: string;
  readonly datacenters?: readonly string[];
}

/** Carried by a one-job execution a fleet started (its input's `fleet`, and its summary's). */
export interface FleetJobRef {
  /** The fleet run's ID (the fleet execution's name). */
  readonly runId: string;
  /** This job's place in the fleet's order, from 1. */
  readonly index: number;
  /** How many jobs the fleet restarts. */
  readonly of: number;
}

/** What each nested field accepts, in words: the JSON Schema's descriptions and the error messages'. */
export const JOB_SCOPE_ALLOWED = {
  fleet: {
    runId: 'the fleet run ID (non-empty string)',
    index: 'the job\'s place in the fleet\'s order (integer from 1, at most "of")',
    of: 'how many jobs the fleet restarts (integer from 1)',
  },
  scope: {
    nodes: 'a list of full node IDs (non-empty strings)',
    nodePool: 'a node pool name (non-empty string)',
    datacenters: 'a list of datacenter names (non-empty strings)',
  },
} as const;

/** Whole-field descriptions, for messages about the field itself. */
export const JOB_SCOPE_FIELDS_ALLOWED = {
  fleet: 'set by a fleet run: {"runId": string, "index": integer, "of": integer}',
  scope:
    'set by a fleet run: restart only allocations on these nodes, {"nodes"?: [node IDs], "nodePool"?: string, "datacenters"?: [names]}',
} as const;

const nonEmpty = z.string().min(1);

/** The `fleet` field's schema. */
export const fleetRefSchema = z
  .object({
    runId: nonEmpty.describe(JOB_SCOPE_ALLOWED.fleet.runId),
    index: z.number().int().min(1).describe(JOB_SCOPE_ALLOWED.fleet.index),
    of: z.number().int().min(1).describe(JOB_SCOPE_ALLOWED.fleet.of),
  })
  .strict()
  .describe(JOB_SCOPE_FIELDS_ALLOWED.fleet);

/** The `scope` field's schema. */
export const jobScopeSchema = z
  .object({
    nodes: z.array(nonEmpty).min(1).optional().describe(JOB_SCOPE_ALLOWED.scope.nodes),
    nodePool: nonEmpty.optional().describe(JOB_SCOPE_ALLOWED.scope.nodePool),
    datacenters: z.array(nonEmpty).min(1).optional().describe(JOB_SCOPE_ALLOWED.scope.datacenters),
  })
  .strict()
  .describe(JOB_SCOPE_FIELDS_ALLOWED.scope);

/** A scope as any reader holds it (the schema's output has `undefined`s where fields are absent). */
type LooseScope = { readonly [K in keyof JobScope]?: JobScope[K] | undefined };

/** A scope as the input and the options hold it: only the fields set, plain arrays. */
type PlainScope = { nodes?: string[]; nodePool?: string; datacenters?: string[] };

/**
 * What the schema cannot say: a place beyond the count, a scope that names nothing.
 * @throws RestartValidationError naming the field, quoting the value
 */
export function validateJobScopeFields(raw: {
  readonly fleet?: FleetJobRef | undefined;
  readonly scope?: LooseScope | undefined;
}): { fleet?: FleetJobRef; scope?: JobScope } {
  const { fleet, scope } = raw;
  if (fleet !== undefined && fleet.index > fleet.of) {
    throw new RestartValidationError(
      `Invalid input field "fleet[index]": got ${fleet.index}, expected ${JOB_SCOPE_ALLOWED.fleet.index} (${fleet.of})`,
      { field: 'fleet' },
    );
  }
  if (
    scope !== undefined &&
    scope.nodes === undefined &&
    scope.nodePool === undefined &&
    scope.datacenters === undefined
  ) {
    // An empty scope would read as "everything" to one reader and "nothing" to another.
    throw new RestartValidationError(
      `Invalid input field "scope": got {}, expected at least one of "nodes", "nodePool", "datacenters" (${JOB_SCOPE_FIELDS_ALLOWED.scope})`,
      { field: 'scope' },
    );
  }
  return {
    ...(fleet === undefined ? {} : { fleet: { runId: fleet.runId, index: fleet.index, of: fleet.of } }),
    ...(scope === undefined ? {} : { scope: copyScope(scope) }),
  };
}

/** A plain copy with only the fields set (the input and the options carry no `undefined`s). */
export function copyScope(scope: LooseScope): PlainScope {
  return {
    ...(scope.nodes === undefined ? {} : { nodes: [...new Set(scope.nodes)] }),
    ...(scope.nodePool === undefined ? {} : { nodePool: scope.nodePool }),
    ...(scope.datacenters === undefined ? {} : { datacenters: [...new Set(scope.datacenters)] }),
  };
}

/**
 * Whether a node is in scope: each field set must match it. `node` is Nomad's node stub
 * (`ID`, `NodePool`, `Datacenter`); a node without a pool or datacenter is out of a scope that
 * names one.
 */
export function nodeInScope(
  scope: JobScope,
  node: { readonly ID: string; readonly NodePool?: string; readonly Datacenter?: string },
): boolean {
  if (scope.nodes !== undefined && !scope.nodes.includes(node.ID)) return false;
  if (scope.nodePool !== undefined && node.NodePool !== scope.nodePool) return false;
  if (scope.datacenters !== undefined && !scope.datacenters.includes(node.Datacenter ?? '')) return false;
  return true;
}

/** Whether deciding the scope needs Nomad's node list (a pool or datacenters), not just the IDs. */
export function scopeNeedsNodeList(scope: JobScope): boolean {
  return scope.nodePool !== undefined || scope.datacenters !== undefined;
}
