/**
 * Whether a run still holds its job's lock in Nomad, told with a reader's token alone: the one
 * rule `nomad-restart history` (is a provisional record's run still running?) and
 * `nomad-restart pause|resume|stop <job>` (which run holds the job?) both follow.
 *
 * A run writes its name into the lock variable's items as it takes the lock, and a released lock
 * leaves its variable and items in place (`VarLockRelease` in `nomad/state/state_store_variables.go`
 * keeps them; nothing deletes the variable), as does a lock freed by its TTL after its holder
 * died. So the items alone name the job's last holder, running or not. Nomad shows the lock itself
 * to management tokens only (`Variables.Read` in `nomad/variables_endpoint.go`: `ov.Lock = nil`);
 * what tells a holder from a past one is the Raft index. Renewing a lock writes nothing; taking
 * it, releasing it and freeing it by its TTL write the variable. A run writes its provisional
 * record into the job's history after it took the lock, so while it holds the lock the lock
 * variable was last written before the history variable; once the lock is freed, after it. A
 * run that ends writes its final record: from then on the record says it ended, whichever of the
 * final write and the release came first (a normal end writes the record first, the failure
 * path and the cleanup after a dead execution release first).
 */
import type { Variable } from '../nomad/variables';
import { holderOf } from './nomad-variables-lock';

/** What the job's history variable says of one run. */
export interface HistoryMark {
  /** The history variable's `ModifyIndex`; `undefined` when there is none or Nomad sent none. */
  readonly index: number | undefined;
  /** The run's record there is final (the run ended). */
  readonly ended: boolean;
}

/**
 * Whether run `runId` holds the job whose lock variable is `lock` (as any token with `read` sees
 * it), given what the job's history says of it (see the file comment). Without both indexes (a
 * Nomad that does not send them, a history never written) the holder's name is all there is.
 */
export function holdsJobLock(runId: string, lock: Variable | undefined, history: HistoryMark): boolean {
  if (holderOf(lock)?.runId !== runId || history.ended) return false;
  const lockIndex = lock?.ModifyIndex;
  if (lockIndex === undefined || history.index === undefined) return true;
  return lockIndex < history.index;
}
