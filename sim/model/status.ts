/** Allocation status predicates shared by the scheduler, the client model and the endpoints. */
import type { AllocListStub } from '../../lib/nomad/types';

const CLIENT_TERMINAL = new Set(['complete', 'failed', 'lost']);

/** Terminal on the client: it will not run again. */
export function isClientTerminal(alloc: AllocListStub): boolean {
  return CLIENT_TERMINAL.has(alloc.ClientStatus);
}

/** Terminal on the server: desired `stop` or `evict`. */
export function isServerTerminal(alloc: AllocListStub): boolean {
  return alloc.DesiredStatus === 'stop' || alloc.DesiredStatus === 'evict';
}

/** Desired to run and not finished: occupies a slot and counts towards the group's count. */
export function isLive(alloc: AllocListStub): boolean {
  return !isServerTerminal(alloc) && !isClientTerminal(alloc);
}

/** Either side says the allocation is done. */
export function isTerminal(alloc: AllocListStub): boolean {
  return isServerTerminal(alloc) || isClientTerminal(alloc);
}

/** `job.group[3]` → 3. */
export function nameIndex(name: string | undefined): number {
  const match = /\[(\d+)\]$/.exec(name ?? '');
  return match?.[1] !== undefined ? Number(match[1]) : 0;
}

/**
 * {@link nameIndex} of a record's name, parsed once: the name never changes. (Typed by shape, not
 * as the store's `AllocRecord`, so the store can use this module's predicates.)
 */
export function slotOf(record: {
  readonly alloc: { readonly Name?: string };
  readonly runtime: { nameIndex?: number };
}): number {
  record.runtime.nameIndex ??= nameIndex(record.alloc.Name);
  return record.runtime.nameIndex;
}
