/**
 * `/v1/var/:path` (read, the lock operations `?lock-acquire`, `?lock-renew`, `?lock-release`, and
 * delete with an optional `?cas=`) and `/v1/vars` (list), with Nomad's ACL checks (`read` to read
 * or list, `write` for a lock operation, `destroy` to delete) and answers: the variable with its
 * lock to the lock-acquire's caller; on a read or a list, the lock only to a management token
 * (with ACLs off every request is one), as `nomad/variables_endpoint.go` does (`Read`, `List`:
 * `if !aclObj.IsManagement() { ov.Lock = nil }`); a 409 with the path and zero indexes, no
 * holder, when the lock is someone else's, and for a delete of a locked or (with `cas`) missing
 * variable; a delete whose `cas` is not the variable's index gets 409 with the variable (its
 * items only for a reader); a delete done, 204.
 */
import { SimHttpError } from '../../errors';
import { parseJsonBody } from '../../model/job-spec';
import type { LockRequest, VariableRecord } from '../../model/variables';
import type { ApiEnv, ApiRequest, ApiResponse, Route } from '../api';
import { indexHeaders, namespaceOf, notFound, ok, principalOf } from '../api';

const LOCK_OPERATIONS = ['lock-acquire', 'lock-renew', 'lock-release'] as const;

/** The variable's metadata, with its lock when `withLock`, and its items when given. */
function render(record: VariableRecord, withLock: boolean, items?: Record<string, string>): unknown {
  return {
    Namespace: record.namespace,
    Path: record.path,
    CreateIndex: record.createIndex,
    ModifyIndex: record.modifyIndex,
    CreateTime: record.createTime,
    ModifyTime: record.modifyTime,
    ...(items === undefined ? {} : { Items: items }),
    ...(withLock && record.lock !== undefined
      ? { Lock: { ID: record.lock.id, TTL: record.lock.ttl, LockDelay: record.lock.delay } }
      : {}),
  };
}

/** Nomad's conflict body: the path, zero indexes, nothing about the holder. */
function conflict(namespace: string, path: string): ApiResponse {
  return {
    status: 409,
    body: { Namespace: namespace, Path: path, CreateIndex: 0, ModifyIndex: 0, CreateTime: 0, ModifyTime: 0 },
  };
}

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

function lockOperation(env: ApiEnv, req: ApiRequest, path: string): ApiResponse {
  if (env.cluster.variables.api === 'no-locks') return plainWrite(env, req, path);
  const operations = LOCK_OPERATIONS.filter((op) => req.query.has(op));
  if (operations.length !== 1)
    throw new SimHttpError(operations.length === 0 ? 400 : 500, 'multiple lock operations');
  const namespace = namespaceOf(req);
  env.acl.requireVariable(principalOf(env, req), namespace, path, 'write');
  const body = lockBody(req);
  const variables = env.cluster.variables;
  switch (operations[0]) {
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

/** A Nomad 1.4 to 1.6 knows no lock operation: the query is ignored, the body's items written. */
function plainWrite(env: ApiEnv, req: ApiRequest, path: string): ApiResponse {
  const namespace = namespaceOf(req);
  env.acl.requireVariable(principalOf(env, req), namespace, path, 'write');
  const record = env.cluster.variables.set(namespace, path, lockBody(req).Items ?? {});
  return ok(render(record, false, record.items), record.modifyIndex);
}

/** `DELETE /v1/var/:path[?cas=<index>]`, as Nomad's `variableDelete`. */
function deleteVariable(env: ApiEnv, req: ApiRequest, path: string): ApiResponse {
  const namespace = namespaceOf(req);
  const principal = principalOf(env, req);
  const casText = req.query.get('cas') ?? '';
  if (casText !== '' && !/^\d+$/.test(casText))
    throw new SimHttpError(400, `can not parse cas: strconv.ParseUint: parsing "${casText}": invalid syntax`);
  env.acl.requireVariable(principal, namespace, path, 'destroy');
  const outcome = env.cluster.variables.delete(namespace, path, casText === '' ? undefined : Number(casText));
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

function listVariables(env: ApiEnv, req: ApiRequest): ApiResponse {
  const principal = principalOf(env, req);
  const namespace = namespaceOf(req);
  const prefix = req.query.get('prefix') ?? '';
  const visible = env.cluster.variables
    .list(namespace, prefix)
    .filter((v) => env.acl.allowedVariable(principal, v.namespace, v.path, 'list'));
  return ok(
    visible.map((v) => render(v, env.acl.isManagement(principal))),
    Math.max(1, ...visible.map((v) => v.modifyIndex)),
  );
}

/** `GET /v1/vars`. */
export const variablesRoute: Route = {
  pattern: '/v1/vars',
  methods: ['GET'],
  handler: (env, req) => withVariablesApi(env, () => listVariables(env, req)),
};

/** Before 1.4 Nomad has no variables routes: a 404 with an empty body. */
function withVariablesApi(env: ApiEnv, answer: () => ApiResponse): ApiResponse {
  return env.cluster.variables.api === 'absent' ? { status: 404, body: '' } : answer();
}

const variableRoute: Route = {
  pattern: '/v1/var/:path',
  methods: ['GET', 'PUT', 'DELETE'],
  handler: (env, req, params) =>
    withVariablesApi(env, () => {
      const path = params['path'] ?? '';
      if (req.method === 'GET') return readVariable(env, req, path);
      return req.method === 'DELETE' ? deleteVariable(env, req, path) : lockOperation(env, req, path);
    }),
};

/** The route of `/v1/var/<path>` (the path may hold slashes). */
export function variableMatch(path: string): { route: Route; params: Record<string, string> } | undefined {
  const rest = path.slice('/v1/var/'.length);
  return rest === '' ? undefined : { route: variableRoute, params: { path: rest } };
}
