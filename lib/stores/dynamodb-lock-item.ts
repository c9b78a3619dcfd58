/**
 * A lock table item read back (lib/stores/dynamodb-job-lock.ts): the job it locks, what its holder
 * kept beside it, and the run-control request recorded on it.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { type ControlRequest, isControlVerb } from '../control/requests';
import type { HeldLock, LockKey } from './job-lock';

/** The lock key an item holds: `<namespace>/<jobId>` (a namespace never holds a `/`). */
export function keyOf(id: string): LockKey {
  const slash = id.indexOf('/');
  return { namespace: id.slice(0, slash), jobId: id.slice(slash + 1) };
}

/** What an item held, as its holder knows it (the shared lock's ID, once kept). */
export function heldLockOf(item: Record<string, AttributeValue>): HeldLock {
  const key = keyOf(item['lockKey']?.S ?? '/');
  const sharedLockId = item['sharedLockId']?.S;
  return sharedLockId === undefined ? { key } : { key, sharedLockId };
}

/** A recorded request read back; one this version does not know is ignored, never acted on. */
export function controlRequestOf(text: string): ControlRequest | undefined {
  try {
    const value = JSON.parse(text) as Partial<ControlRequest>;
    if (!isControlVerb(value.verb) || typeof value.at !== 'number') return undefined;
    return value as ControlRequest;
  } catch {
    return undefined;
  }
}
