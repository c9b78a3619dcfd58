/**
 * The node selectors of a fleet (`-node`, `-node-pool`, `-datacenter`) turned into the scope each
 * job's run restarts in, and the set of node IDs the fleet's plan counts allocations on. Read from
 * Nomad's node endpoints, which need `node:read`: a token without it is refused in one line.
 */

import {
  noNodeMatched,
  sanitizeNodePrefix,
  severalNodesMatched,
  tooShortNodeId,
} from '../../fleet/node-prefix';
import type { FleetSelection } from '../../fleet/options';
import { goQuote } from '../../go/quote';
import type { NomadClient } from '../../nomad/client';
import { isPermissionDenied, UnexpectedResponseError } from '../../nomad/errors';
import type { NodeListStub } from '../../nomad/types';
import { type JobScope, nodeInScope } from '../../restart/job-scope';
import { InvalidInputError } from '../../workflow/errors';
import { forEachPage } from './pages';

/** The one line a token without `node:read` (or, for `-node-pool`, node pool read) gets. */
export const NODE_READ_DENIED =
  "Permission denied reading Nomad's nodes: -node, -node-pool and -datacenter need the node:read capability, and -node-pool read on the pool (node_pool policy); see the fleet policy in the README";

/** A fleet's node scope: what each job's run gets, and the nodes the plan counts on. */
export interface NodeScope {
  readonly scope: JobScope;
  /** The IDs of the nodes in scope. */
  readonly nodeIds: ReadonlySet<string>;
  /** Requests made to Nomad. */
  readonly requests: number;
}

/** Runs a node read, turning a permission failure into {@link NODE_READ_DENIED}. */
async function readNodes<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (isPermissionDenied(err)) throw new InvalidInputError(NODE_READ_DENIED, { cause: err });
    throw err;
  }
}

/** The full ID of the one node `id` names, as Nomad's CLI resolves it; refused with its words otherwise. */
async function resolveNode(nomad: NomadClient, id: string, signal: AbortSignal | undefined): Promise<string> {
  const short = tooShortNodeId(id);
  if (short !== undefined) throw new InvalidInputError(short);
  const prefix = sanitizeNodePrefix(id);
  const { value } = await readNodes(() =>
    nomad.nodes().list({ prefix }, signal === undefined ? {} : { signal }),
  );
  // Exactly the ID typed wins even if longer IDs start with it, as an exact job ID does.
  const exact = value.find((n) => n.ID === id);
  if (exact !== undefined) return exact.ID;
  const [only, ...others] = value;
  if (only === undefined) throw new InvalidInputError(noNodeMatched(prefix));
  if (others.length > 0) throw new InvalidInputError(severalNodesMatched(value));
  return only.ID;
}

/** Checks the pool exists (an unknown one selects nothing, silently, on Nomad's node list). */
async function checkPool(nomad: NomadClient, pool: string, signal: AbortSignal | undefined): Promise<void> {
  try {
    await readNodes(() => nomad.nodePools().info(pool, signal === undefined ? {} : { signal }));
  } catch (err) {
    if (err instanceof UnexpectedResponseError && err.statusCode === 404) {
      throw new InvalidInputError(`Unknown node pool ${goQuote(pool)}: Nomad has no node pool of that name`, {
        cause: err,
      });
    }
    throw err;
  }
}

/**
 * The fleet's node scope, or `undefined` when the selection names no node, pool or datacenter
 * (then every allocation of a selected job is in scope). Prefixes are resolved one request each,
 * the pool checked, and with a pool or datacenters the node list read once.
 */
export async function resolveNodeScope(
  nomad: NomadClient,
  selection: FleetSelection,
  signal?: AbortSignal,
): Promise<NodeScope | undefined> {
  const { nodes, nodePool, datacenters } = selection;
  if (nodes === undefined && nodePool === undefined && datacenters === undefined) return undefined;
  let requests = 0;
  const ids: string[] = [];
  for (const id of nodes ?? []) {
    ids.push(await resolveNode(nomad, id, signal));
    requests++;
  }
  if (nodePool !== undefined) {
    await checkPool(nomad, nodePool, signal);
    requests++;
  }
  const scope: JobScope = {
    ...(nodes === undefined ? {} : { nodes: [...new Set(ids)] }),
    ...(nodePool === undefined ? {} : { nodePool }),
    ...(datacenters === undefined ? {} : { datacenters: [...datacenters] }),
  };
  if (nodePool === undefined && datacenters === undefined) {
    return { scope, nodeIds: new Set(ids), requests };
  }
  const nodeIds = new Set<string>();
  requests += await readNodes(() =>
    forEachPage<NodeListStub>(
      (page) => nomad.nodes().list(page, signal === undefined ? {} : { signal }),
      (page) => {
        for (const node of page) if (nodeInScope(scope, node)) nodeIds.add(node.ID);
      },
    ),
  );
  return { scope, nodeIds, requests };
}
