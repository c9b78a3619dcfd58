/** How Nomad's variables endpoints print a variable (`structs.VariableMetadata`, `VariableDecrypted`). */
import type { VariableRecord } from '../../model/variables';
import type { ApiResponse } from '../api';

/** The variable's metadata, with its lock when `withLock`, and its items when given. */
export function renderVariable(
  record: VariableRecord,
  withLock: boolean,
  items?: Record<string, string>,
): unknown {
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

/** Nomad's conflict with its zero value: the path, zero indexes, nothing about a holder. */
export function zeroConflict(namespace: string, path: string): ApiResponse {
  return {
    status: 409,
    body: { Namespace: namespace, Path: path, CreateIndex: 0, ModifyIndex: 0, CreateTime: 0, ModifyTime: 0 },
  };
}
