/**
 * The two shapes of read every endpoint family has, each with its ACL check done the way
 * Nomad does it: a namespace's table (`read-job` on the request's namespace, then a blocking
 * query) and one record by ID (`read-job` on the record's own namespace, 404 when missing).
 */

import type { Table } from '../model/store';
import {
  type ApiEnv,
  type ApiRequest,
  type ApiResponse,
  type BlockingSpec,
  namespaceOf,
  notFound,
  ok,
  principalOf,
  type Route,
} from './api';
import { blockingQuery } from './blocking';

/** A blocking read of the request's namespace, after its `read-job` check. */
export function namespaceRead(
  env: ApiEnv,
  req: ApiRequest,
  read: (namespace: string) => BlockingSpec,
): Promise<ApiResponse> {
  const namespace = namespaceOf(req);
  env.acl.require(principalOf(env, req), namespace, 'read-job');
  return blockingQuery(env, req, read(namespace));
}

/** How to find, index and render one kind of record. */
export interface RecordReadSpec<T> {
  readonly table: Table;
  /** The record, or `undefined` when there is none (now, or later in a blocking query). */
  readonly find: () => T | undefined;
  /** @default the record's `Namespace` */
  readonly namespaceOf?: (record: T) => string | undefined;
  /** @default the record's `ModifyIndex` */
  readonly modifyIndexOf?: (record: T) => number | undefined;
  /** Nomad's 404 text, e.g. `eval not found`. */
  readonly notFoundText: string;
  /** @default the record itself */
  readonly render?: (record: T) => unknown;
  /** What Nomad answers when the record's namespace denies `read-job`. @default the ACL's 403 */
  readonly denied?: () => Error;
}

const ownNamespace = (record: object) => (record as { Namespace?: string }).Namespace;
const ownModifyIndex = (record: object) => (record as { ModifyIndex?: number }).ModifyIndex;

/**
 * A blocking read of one record. An existing record needs `read-job` on its own namespace; a
 * missing one is Nomad's 404 (after any hold), not a 403.
 */
export function recordRead<T extends object>(
  env: ApiEnv,
  req: ApiRequest,
  spec: RecordReadSpec<T>,
): Promise<ApiResponse> {
  const principal = principalOf(env, req);
  const existing = spec.find();
  if (existing !== undefined) {
    const namespace = (spec.namespaceOf ?? ownNamespace)(existing) ?? 'default';
    if (spec.denied !== undefined && !env.acl.allowed(principal, namespace, 'read-job')) throw spec.denied();
    env.acl.require(principal, namespace, 'read-job');
  }
  const { store } = env.cluster.ctx;
  return blockingQuery(env, req, {
    tables: [spec.table],
    resourceIndex: () => {
      const record = spec.find();
      const index = record === undefined ? undefined : (spec.modifyIndexOf ?? ownModifyIndex)(record);
      return index ?? store.last(spec.table);
    },
    render: () => {
      const record = spec.find();
      if (record === undefined) throw notFound(spec.notFoundText);
      return ok(spec.render === undefined ? record : spec.render(record));
    },
  });
}

/** A route whose handler takes the `:id` path parameter. */
export function byId(
  pattern: string,
  methods: Route['methods'],
  handle: (env: ApiEnv, req: ApiRequest, id: string) => Promise<ApiResponse> | ApiResponse,
): Route {
  return { pattern, methods, handler: (env, req, params) => handle(env, req, params['id'] ?? '') };
}
