/**
 * A fleet's node scope in a one-job run (`options.scope`): only the job's allocations on the nodes
 * in scope are planned. Node IDs are matched directly; a node pool or datacenters are resolved
 * through one read of Nomad's node list per run (never one per allocation), which needs
 * `node:read`, as the fleet's own plan did.
 */
import type { NomadClient } from '../../nomad/client';
import type { AllocListStub, NodeListStub } from '../../nomad/types';
import { type JobScope, nodeInScope, scopeNeedsNodeList } from '../../restart/job-scope';
import { forEachPage } from '../fleet/pages';

/** The IDs of the nodes in `scope`: its `nodes` as given, or those Nomad's node list matches. */
async function nodesInScope(
  client: NomadClient,
  scope: JobScope,
  signal: AbortSignal | undefined,
): Promise<ReadonlySet<string>> {
  if (!scopeNeedsNodeList(scope)) return new Set(scope.nodes ?? []);
  const ids = new Set<string>();
  await forEachPage<NodeListStub>(
    (page) => client.nodes().list(page, signal === undefined ? {} : { signal }),
    (page) => {
      for (const node of page) if (nodeInScope(scope, node)) ids.add(node.ID);
    },
  );
  return ids;
}

/** `stubs` on the nodes in `scope`, in their order; all of them without a scope. */
export async function allocationsInScope(
  client: NomadClient,
  scope: JobScope | undefined,
  stubs: AllocListStub[],
  signal?: AbortSignal,
): Promise<AllocListStub[]> {
  if (scope === undefined) return stubs;
  const nodes = await nodesInScope(client, scope, signal);
  return stubs.filter((stub) => stub.NodeID !== undefined && nodes.has(stub.NodeID));
}
