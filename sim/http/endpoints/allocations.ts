/**
 * `/v1/allocation/:id`, `/v1/allocation/:id/stop`, `/v1/allocations` and the client
 * restart endpoint `/v1/client/allocation/:id/restart` (Nomad's `api/allocations.go`,
 * `command/agent/alloc_endpoint.go`); the checks endpoints are in checks.ts.
 */

import { SimHttpError } from '../../errors';
import { parseJsonBody } from '../../model/job-spec';
import { renderAlloc } from '../../model/render';
import type { ApiEnv, ApiRequest, ApiResponse, Route } from '../api';
import { notFound, ok, principalOf } from '../api';
import { clientAllocation } from '../client-allocation';
import { boolParam } from '../query';
import { byId, recordRead } from '../reads';
import { listAllocations } from './alloc-list';
import { readChecks } from './checks';

function readAlloc(env: ApiEnv, req: ApiRequest, id: string): Promise<ApiResponse> {
  const { allocs } = env.cluster.ctx.store;
  return recordRead(env, req, {
    table: 'allocs',
    find: () => allocs.get(id),
    namespaceOf: (record) => record.alloc.Namespace,
    modifyIndexOf: (record) => record.alloc.ModifyIndex,
    notFoundText: 'alloc not found',
    render: renderAlloc,
    // Upstream quirk: an existing allocation the token may not read is a 500, not a 403.
    denied: () => new SimHttpError(500, `Unknown allocation "${id}"`),
  });
}

function stopAlloc(env: ApiEnv, req: ApiRequest, id: string): ApiResponse {
  const noShutdownDelay = boolParam(req, 'no_shutdown_delay');
  const reschedule = boolParam(req, 'reschedule');
  const principal = principalOf(env, req);
  const record = env.cluster.ctx.store.allocs.get(id);
  if (!record) throw notFound('allocation not found');
  env.acl.require(principal, record.alloc.Namespace ?? 'default', 'alloc-lifecycle');
  const result = env.cluster.stopAllocation(record, noShutdownDelay, reschedule);
  return ok(result, result.Index);
}

function listAllocs(env: ApiEnv, req: ApiRequest): Promise<ApiResponse> {
  return listAllocations(env, req, boolParam(req, 'task_states', true));
}

interface RestartBody {
  TaskName: string;
  AllTasks: boolean;
}

/** Go decodes the body into an anonymous struct; type errors name `.Field`. */
function decodeRestartBody(body: string): RestartBody {
  if (body.trim() === '') return { TaskName: '', AllTasks: false };
  const parsed = parseJsonBody(body, 500);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new SimHttpError(
      500,
      `json: cannot unmarshal ${Array.isArray(parsed) ? 'array' : typeof parsed} into Go value of type struct { TaskName string; AllTasks bool }`,
    );
  }
  const fields = parsed as Record<string, unknown>;
  const taskName = fields['TaskName'] ?? '';
  const allTasks = fields['AllTasks'] ?? false;
  if (typeof taskName !== 'string') {
    throw new SimHttpError(
      500,
      `json: cannot unmarshal ${typeof taskName} into Go struct field .TaskName of type string`,
    );
  }
  if (typeof allTasks !== 'boolean') {
    throw new SimHttpError(
      500,
      `json: cannot unmarshal ${typeof allTasks} into Go struct field .AllTasks of type bool`,
    );
  }
  return { TaskName: taskName, AllTasks: allTasks };
}

async function restartAlloc(env: ApiEnv, req: ApiRequest, id: string): Promise<ApiResponse> {
  const record = clientAllocation(env, req, id, 'alloc-lifecycle');
  const body = decodeRestartBody(req.body);
  await env.cluster.restartAllocation(record, body.TaskName, body.AllTasks);
  // Nomad answers {"Index":0} and, unlike stop, sends no X-Nomad-Index header.
  return { status: 200, body: { Index: 0 } };
}

/** `/v1/allocation/:id`, `/v1/allocation/:id/stop` and `/checks`. */
export function allocationRoute(path: string): { route: Route; params: Record<string, string> } {
  const rest = path.slice('/v1/allocation/'.length);
  if (rest.endsWith('/checks')) {
    return {
      route: byId('/v1/allocation/:id/checks', '*', readChecks),
      params: { id: rest.slice(0, -'/checks'.length) },
    };
  }
  if (rest.endsWith('/stop')) {
    return {
      route: byId('/v1/allocation/:id/stop', ['PUT', 'POST'], stopAlloc),
      params: { id: rest.slice(0, -'/stop'.length) },
    };
  }
  return { route: byId('/v1/allocation/:id', ['GET'], readAlloc), params: { id: rest } };
}

/** `/v1/client/allocation/:id/restart` and `/checks` (any method, as in Nomad). */
export function clientAllocationRoute(
  path: string,
): { route: Route; params: Record<string, string> } | undefined {
  const rest = path.slice('/v1/client/allocation/'.length);
  if (rest.endsWith('/checks')) {
    return {
      route: byId('/v1/client/allocation/:id/checks', '*', readChecks),
      params: { id: rest.slice(0, -'/checks'.length) },
    };
  }
  if (!rest.endsWith('/restart')) return undefined;
  return {
    route: byId('/v1/client/allocation/:id/restart', '*', restartAlloc),
    params: { id: rest.slice(0, -'/restart'.length) },
  };
}

export const allocationsRoute: Route = { pattern: '/v1/allocations', methods: ['GET'], handler: listAllocs };
