/**
 * `/v1/var/:path`: read, a plain write (`PUT`/`POST` without a lock operation, as `nomad var put`
 * sends it, with an optional `?cas=`), the lock operations `?lock-acquire`, `?lock-renew`,
 * `?lock-release`, and delete with an optional `?cas=`, with Nomad's ACL checks (`read` to read,
 * `write` to write or for a lock operation, `destroy` to delete) and answers
 * (command/agent/variable_endpoint.go, nomad/variables_endpoint.go): the variable with its lock to
 * the lock-acquire's caller; on a read, the lock only to a management token (with ACLs off every
 * request is one: `if !aclObj.IsManagement() { ov.Lock = nil }`); a 409 with the path and zero
 * indexes, no holder, when the lock is someone else's, and for a write or delete of a locked or
 * (with `cas`) missing variable; a write or delete whose `cas` is not the variable's index gets 409
 * with the variable (its items only for a reader); a delete done, 204. The list is in variable-list.ts.
 */
import { SimHttpError } from '../../errors';
import { parseJsonBody } from '../../model/job-spec';
import { variablePathError } from '../../model/variable-path';
import { variableSizeError } from '../../model/variable-size';
import type { LockRequest, VariableRecord } from '../../model/variables';
import type { ApiEnv, ApiRequest, ApiResponse, Route } from '../api';
import { indexHeaders, namespaceOf, notFound, ok, principalOf } from '../api';
import { zeroConflict as conflict, renderVariable as render } from './variable-render';

const LOCK_OPERATIONS = ['lock-acquire', 'lock-renew', 'lock-release'] as const;

interface LockBody {
  Items?: Record<string, string>;
  Lock?: LockRequest;
}

function lockBody(req: ApiRequest): LockBody {
  const parsed = req.body.trim() === '' ? {} : parseJsonBody(req.body);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new SimHttpError(400, 'json: cannot unmarshal into Go value of type structs.VariableDecrypted');
  return parsed as LockBody;
}

function readVariable(env: ApiEnv, req: ApiRequest, path: string): ApiResponse {
  const namespace = namespaceOf(req);
  const principal = principalOf(env, req);
  env.acl.requireVariable(principal, namespace, path, 'read');
  const record = env.cluster.variables.read(namespace, path);
  if (record === undefined) throw notFound('variable not found');
  return ok(render(record, env.acl.isManagement(principal), record.items), record.modifyIndex);
}

/** A `PUT`/`POST`: a plain write, or the one lock operation its query names. */
function write(env: ApiEnv, req: ApiRequest, path: string): ApiResponse {
  // A Nomad before 1.7 knows no lock operation: the query is ignored, the body's items written.
  if (env.cluster.variables.api === 'no-locks') return plainWrite(env, req, path);
  const operations = LOCK_OPERATIONS.filter((op) => req.query.has(op));
  if (operations.length === 0) return plainWrite(env, req, path);
  if (operations.length > 1) throw new SimHttpError(500, 'multiple lock operations');
  if ((req.query.get('cas') ?? '') !== '')
    throw new SimHttpError(400, "CAS can't be used with lock operations");
  return lockOperation(env, req, path, operations[0] as (typeof LOCK_OPERATIONS)[number]);
}

function lockOperation(
  env: ApiEnv,
  req: ApiRequest,
  path: string,
  operation: (typeof LOCK_OPERATIONS)[number],
): ApiResponse {
  const namespace = namespaceOf(req);
  env.acl.requireVariable(principalOf(env, req), namespace, path, 'write');
  const body = lockBody(req);
  const variables = env.cluster.variables;
  switch (operation) {
    case 'lock-acquire': {
      const record = variables.acquire(namespace, path, body.Items ?? {}, body.Lock ?? {});
      if (record === undefined) return conflict(namespace, path);
      return ok(render(record, true, record.items), record.modifyIndex);
    }
    case 'lock-renew': {
      const record = variables.renew(namespace, path, body.Lock?.ID ?? '');
      return ok(render(record, true), record.modifyIndex);
    }
    default: {
      const id = body.Lock?.ID;
      if (id === undefined || id === '') throw new SimHttpError(400, 'missing lock information');
      if (!variables.release(namespace, path, id)) return conflict(namespace, path);
      const record = variables.read(namespace, path) as VariableRecord;
      return ok(render(record, false), record.modifyIndex);
    }
  }
}

/** `?cas=<index>`: undefined without one. @throws SimHttpError 400 with Nomad's `parseCAS` text. */
function casOf(req: ApiRequest): number | undefined {
  const text = req.query.get('cas') ?? '';
  if (text === '') return undefined;
  if (!/^\d+$/.test(text))
    throw new SimHttpError(400, `can not parse cas: strconv.ParseUint: parsing "${text}": invalid syntax`);
  return Number(text);
}

/**
 * `nomad var put`: the body's items replace the variable's (`variableUpsert`). The agent refuses a
 * body without items and a bad `cas` (400) before the server checks `write` (403), then the items'
 * size (over 64 KiB) and the path (400, the server's coded error wrapped twice:
 * `RPC Error:: 400,<text>`).
 */
function plainWrite(env: ApiEnv, req: ApiRequest, path: string): ApiResponse {
  const namespace = namespaceOf(req);
  const body = lockBody(req);
  if (body.Items === undefined || body.Items === null || Object.keys(body.Items).length === 0)
    throw new SimHttpError(400, 'variable missing required Items object');
  const cas = casOf(req);
  const principal = principalOf(env, req);
  env.acl.requireVariable(principal, namespace, path, 'write');
  // `VariableDecrypted.Validate`'s order: the items' size, then the path.
  const invalid = variableSizeError(body.Items) ?? variablePathError(path);
  if (invalid !== undefined) throw new SimHttpError(400, `RPC Error:: 400,${invalid}`);
  const outcome = env.cluster.variables.upsert(namespace, path, body.Items, cas, body.Lock?.ID);
  if (outcome.kind === 'written') {
    const record = outcome.record;
    const holder = record.lock !== undefined && record.lock.id === body.Lock?.ID;
    return ok(render(record, holder || env.acl.isManagement(principal), record.items), record.modifyIndex);
  }
  const current = outcome.current;
  if (current === undefined) return conflict(namespace, path);
  const readable = env.acl.allowedVariable(principal, namespace, path, 'read');
  return {
    status: 409,
    body: render(current, true, readable ? current.items : undefined),
    headers: indexHeaders(current.modifyIndex),
  };
}

/** `DELETE /v1/var/:path[?cas=<index>]`, as Nomad's `variableDelete`. */
function deleteVariable(env: ApiEnv, req: ApiRequest, path: string): ApiResponse {
  const namespace = namespaceOf(req);
  const principal = principalOf(env, req);
  const cas = casOf(req);
  env.acl.requireVariable(principal, namespace, path, 'destroy');
  const outcome = env.cluster.variables.delete(namespace, path, cas);
  switch (outcome.kind) {
    case 'deleted':
      return { status: 204, body: '', headers: indexHeaders(outcome.index) };
    case 'changed': {
      const current = outcome.current;
      const readable = env.acl.allowedVariable(principal, namespace, path, 'read');
      return {
        status: 409,
        body: render(current, true, readable ? current.items : undefined),
        headers: indexHeaders(current.modifyIndex),
      };
    }
    default:
      return conflict(namespace, path);
  }
}

/** Before 1.4 Nomad has no variables routes: a 404 with an empty body. */
function withVariablesApi(env: ApiEnv, answer: () => ApiResponse): ApiResponse {
  return env.cluster.variables.api === 'absent' ? { status: 404, body: '' } : answer();
}

const variableRoute: Route = {
  pattern: '/v1/var/:path',
  methods: ['GET', 'PUT', 'POST', 'DELETE'],
  handler: (env, req, params) =>
    withVariablesApi(env, () => {
      const path = params['path'] ?? '';
      if (req.method === 'GET') return readVariable(env, req, path);
      return req.method === 'DELETE' ? deleteVariable(env, req, path) : write(env, req, path);
    }),
};

/** The route of `/v1/var/<path>` (the path may hold slashes). */
export function variableMatch(path: string): { route: Route; params: Record<string, string> } | undefined {
  const rest = path.slice('/v1/var/'.length);
  return rest === '' ? undefined : { route: variableRoute, params: { path: rest } };
}
