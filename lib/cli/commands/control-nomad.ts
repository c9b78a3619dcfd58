/**
 * A run-control request for the run that holds a job (`nomad-restart pause|resume|stop <job>`),
 * reached through Nomad alone: the job's lock variable names its holder (its items: run ID,
 * engine, who, where), the job's history tells a holder from a run that ended and left the
 * variable (lib/stores/lock-liveness.ts), and the request is written to the job's request variable
 * beside it (`nomad-restart/requests/<job>`, lib/stores/nomad-control-requests.ts), which the
 * holder reads at its safe points, a terminal run (polled while it waits on its pause question) or
 * an AWS one. Needs `read` on `nomad-restart/locks/*` and `nomad-restart/history/*`, and `read`
 * and `write` on `nomad-restart/requests/*`.
 */

import { RunControlError, RunNotPausedError, RunNotRunningError } from '../../control/errors';
import type { ControlRequest } from '../../control/requests';
import { goQuote } from '../../go/quote';
import { decodeRecord } from '../../history/record-decode';
import type { NomadClient } from '../../nomad/client';
import { UnexpectedResponseError } from '../../nomad/errors';
import type { SharedLockHolder } from '../../stores/errors';
import type { LockKey } from '../../stores/job-lock';
import { holdsJobLock } from '../../stores/lock-liveness';
import { NomadControlRequests } from '../../stores/nomad-control-requests';
import { holderOf } from '../../stores/nomad-variables-lock';
import {
  CONTROL_REQUEST_PREFIX,
  RUN_HISTORY_PREFIX,
  runHistoryPath,
  SHARED_LOCK_PREFIX,
  sharedLockPath,
} from '../../stores/shared-lock-settings';

/**
 * The run that holds `key`: the one its lock variable names, while the job's history does not say
 * it ended and the lock was not written since its record (lib/stores/lock-liveness.ts). A released
 * lock leaves its variable naming the last holder, so the name alone is not enough.
 */
export async function lockHolder(nomad: NomadClient, key: LockKey): Promise<SharedLockHolder> {
  const q = { namespace: key.namespace };
  const lock = await permitted(key, SHARED_LOCK_PREFIX, 'read', () =>
    nomad.variables().read(sharedLockPath(key.jobId), q),
  );
  const holder = holderOf(lock);
  const none = () =>
    new RunNotRunningError(`No restart of ${jobText(key)} is running: no run holds its lock`);
  if (holder === undefined) throw none();
  const history = await permitted(key, RUN_HISTORY_PREFIX, 'read', () =>
    nomad.variables().read(runHistoryPath(key.jobId), q),
  );
  const value = history?.Items?.[holder.runId];
  const record = value === undefined ? undefined : decodeRecord(holder.runId, value);
  const ended = record !== undefined && record.outcome !== 'running';
  if (!holdsJobLock(holder.runId, lock, { index: history?.ModifyIndex, ended })) throw none();
  return holder;
}

/**
 * Writes `request` for `holder`'s run to the job's request variable, replacing any request there
 * (a `resume` so takes back a pause the run has not reached yet, or answers the pause question
 * the run is parked on). As through the lock table, a `resume` of a run with no pause requested
 * or parked, and a `pause` of a run parked on its pause question, are refused with nothing
 * written: the run shows its parked pause in the variable (lib/stores/nomad-control-requests.ts).
 * @throws RunNotPausedError, RunControlError for those; RunControlError naming the capability the token lacks
 */
export async function requestThroughNomad(
  nomad: NomadClient,
  key: LockKey,
  holder: SharedLockHolder,
  request: ControlRequest,
): Promise<void> {
  const requests = new NomadControlRequests(nomad);
  if (request.verb !== 'stop') {
    const state = await permitted(key, CONTROL_REQUEST_PREFIX, 'read', () =>
      requests.pauseState(key, holder.runId),
    );
    if (request.verb === 'resume' && state === undefined)
      throw new RunNotPausedError(`The restart of ${jobText(key)} is not paused: there is nothing to resume`);
    if (request.verb === 'pause' && state === 'parked')
      throw new RunControlError(
        `The restart of ${jobText(key)} is already paused: its pause question waits for an answer (resume or stop it)`,
      );
  }
  await permitted(key, CONTROL_REQUEST_PREFIX, 'write', () => requests.write(key, holder.runId, request));
}

/** `job "web" in namespace "default"`. */
export function jobText(key: LockKey): string {
  return `job ${goQuote(key.jobId)} in namespace ${goQuote(key.namespace)}`;
}

/** Runs a Nomad call; a 403 says which variables capability the token needs, in policy words. */
async function permitted<T>(
  key: LockKey,
  prefix: string,
  capability: 'read' | 'write',
  call: () => Promise<T>,
): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!(err instanceof UnexpectedResponseError) || err.statusCode !== 403) throw err;
    throw new RunControlError(
      `Nomad denied the request: the token needs the variables capability "${capability}" on path "${prefix}*" ` +
        `in namespace "${key.namespace}" (docs/run-control.md)`,
      { cause: err },
    );
  }
}
