/**
 * Run-control requests (lib/control/requests.ts) for a job's run, kept in Nomad: the variable
 * `nomad-restart/requests/<job>` in the job's namespace (`controlRequestPath`), beside the job's
 * lock variable. Anyone who may `write` there asks (`nomad-restart pause <job>` from another
 * terminal, with nothing but a Nomad token); the lock's holder reads it at its safe points and
 * deletes it once acted on. It cannot be an item of the lock variable itself: Nomad refuses any
 * write to a locked variable by a non-holder (`errVarIsLocked` in `nomad/variables_endpoint.go`).
 *
 * Items, all strings (Nomad's variables hold nothing else): `runId` (the run asked: a request for
 * another run of the job is never acted on), `verb`, `requestedBy`, `via`, `at` (RFC 3339, ms).
 *
 * While the run is parked on the pause question a pause became, the variable holds the pause with
 * the `verb` `paused` instead (the parked marker, {@link NomadControlRequests.park}): no request,
 * so the run does not pause again after a yes, but it shows another terminal that the run is
 * paused, which is what lets `nomad-restart resume <job>` refuse a run that is not. A `resume` or
 * `stop` replaces it; the run deletes it at its next safe point.
 */
import { type ControlChannel, type ControlRequest, isControlVerb } from '../control/requests';
import type { NomadClient } from '../nomad/client';
import { UnexpectedResponseError } from '../nomad/errors';
import type { Variable } from '../nomad/variables';
import type { LockKey } from './job-lock';
import { CONTROL_REQUEST_PREFIX, controlRequestPath, type SharedLockLog } from './shared-lock-settings';

const CHANNELS: readonly ControlChannel[] = ['terminal', 'slack', 'webhook', 'console'];

/** The `verb` item of the parked marker (see the file comment). */
const PARKED_VERB = 'paused';

/** A request as read from Nomad, with the index a checked delete of it needs. */
export interface StoredControlRequest {
  readonly request: ControlRequest;
  readonly modifyIndex: number;
}

/**
 * Where a run's pause stands, as its request variable shows it: `requested` (a pause not reached
 * yet), `parked` (the run waits on its pause question), or `undefined` (not paused).
 */
export type NomadPauseState = 'requested' | 'parked' | undefined;

/** The request in `variable`'s items for run `runId`; `undefined` for another run's, or one unreadable. */
function requestOf(variable: Variable, runId: string): ControlRequest | undefined {
  return recordOf(variable, runId, isControlVerb);
}

/** The parked marker in `variable`'s items for run `runId`, as the pause it was; else `undefined`. */
function parkedOf(variable: Variable, runId: string): ControlRequest | undefined {
  const parked = recordOf(variable, runId, (verb) => verb === PARKED_VERB);
  return parked === undefined ? undefined : { ...parked, verb: 'pause' };
}

/** `variable`'s items for run `runId` when their `verb` passes `isVerb`; else `undefined`. */
function recordOf(
  variable: Variable,
  runId: string,
  isVerb: (verb: string | undefined) => boolean,
): ControlRequest | undefined {
  const items = variable.Items ?? {};
  const { verb, requestedBy, via, at } = {
    verb: items['verb'],
    requestedBy: items['requestedBy'],
    via: items['via'],
    at: Date.parse(items['at'] ?? ''),
  };
  if (items['runId'] !== runId || !isVerb(verb) || requestedBy === undefined) return undefined;
  if (!CHANNELS.includes(via as ControlChannel) || Number.isNaN(at)) return undefined;
  return { verb: verb as ControlRequest['verb'], requestedBy, via: via as ControlChannel, at };
}

/** The job's request variable in Nomad (see the file comment). */
export class NomadControlRequests {
  /** @param log where a holder's token that may not read the variable is reported */
  public constructor(
    private readonly nomad: NomadClient,
    private readonly log?: SharedLockLog,
  ) {}

  /**
   * Records `request` for run `runId` of the job, replacing any request there (a newer request
   * wins). Needs the `write` variables capability on `nomad-restart/requests/*`.
   */
  public async write(key: LockKey, runId: string, request: ControlRequest): Promise<void> {
    await this.nomad
      .variables()
      .write(controlRequestPath(key.jobId), itemsOf(runId, request), { namespace: key.namespace });
  }

  /**
   * Where run `runId`'s pause stands (see {@link NomadPauseState}), for a terminal that asks
   * `resume` or `pause`. Needs `read`; a 403 throws, for the caller to name the capability.
   */
  public async pauseState(key: LockKey, runId: string): Promise<NomadPauseState> {
    const variable = await this.nomad
      .variables()
      .read(controlRequestPath(key.jobId), { namespace: key.namespace });
    if (variable === undefined) return undefined;
    if (parkedOf(variable, runId) !== undefined) return 'parked';
    return requestOf(variable, runId)?.verb === 'pause' ? 'requested' : undefined;
  }

  /**
   * Replaces the pause `stored` (as {@link read} answered it) with the parked marker, checked at the
   * index it was read at, so a request written meanwhile is kept for the run. A token without
   * `write` deletes it instead (reported): the run is then paused without Nomad showing it.
   */
  public async park(key: LockKey, runId: string, stored: StoredControlRequest): Promise<void> {
    const path = controlRequestPath(key.jobId);
    const items = { ...itemsOf(runId, stored.request), verb: PARKED_VERB };
    try {
      await this.nomad
        .variables()
        .checkedWrite(path, items, stored.modifyIndex, { namespace: key.namespace });
    } catch (err) {
      if (!(err instanceof UnexpectedResponseError) || err.statusCode !== 403) throw err;
      this.log?.warn(
        `A paused run is not shown to other terminals: the token needs the variables capability "write" on path "${CONTROL_REQUEST_PREFIX}*"`,
        { namespace: key.namespace, path },
      );
      await this.clear(key, stored);
    }
  }

  /**
   * The request recorded for run `runId`, if any. A token that may not `read` the variable reads
   * none (the run goes on, only unreachable from other terminals), reported as a warning.
   */
  public async read(
    key: LockKey,
    runId: string,
    options: { readonly atSafePoint?: boolean } = {},
  ): Promise<StoredControlRequest | undefined> {
    const variable = await this.readVariable(key);
    const parked = variable === undefined ? undefined : parkedOf(variable, runId);
    // At a safe point the run is not parked (any more): its marker is deleted, in the same read.
    if (options.atSafePoint === true && parked !== undefined && variable?.ModifyIndex !== undefined)
      await this.clear(key, { request: parked, modifyIndex: variable.ModifyIndex });
    const request = variable === undefined ? undefined : requestOf(variable, runId);
    if (request === undefined || variable?.ModifyIndex === undefined) return undefined;
    return { request, modifyIndex: variable.ModifyIndex };
  }

  /** The request variable as the run reads it; `undefined` when absent or not readable (reported). */
  private async readVariable(key: LockKey): Promise<Variable | undefined> {
    const path = controlRequestPath(key.jobId);
    try {
      return await this.nomad.variables().read(path, { namespace: key.namespace });
    } catch (err) {
      if (!(err instanceof UnexpectedResponseError) || err.statusCode !== 403) throw err;
      this.log?.warn(
        `Run-control requests from other terminals are not read: the token needs the variables capabilities "read" and "destroy" on path "${CONTROL_REQUEST_PREFIX}*"`,
        { namespace: key.namespace, path },
      );
      return undefined;
    }
  }

  /**
   * Deletes the request `stored` as {@link read} answered it, checked at the index it was read at,
   * so a newer request written meanwhile is kept for the next safe point (Nomad's 409). Needs
   * `destroy`; a token without it leaves the request, reported: the run meets it again.
   */
  public async clear(key: LockKey, stored: StoredControlRequest): Promise<void> {
    const path = controlRequestPath(key.jobId);
    try {
      await this.nomad.variables().checkedDelete(path, stored.modifyIndex, { namespace: key.namespace });
    } catch (err) {
      if (!(err instanceof UnexpectedResponseError) || err.statusCode !== 403) throw err;
      this.log?.warn(
        `A run-control request acted on was left in Nomad, to be met again: the token needs the variables capability "destroy" on path "${CONTROL_REQUEST_PREFIX}*"`,
        { namespace: key.namespace, path },
      );
    }
  }
}

/** The variable's items for `request` to run `runId`. */
function itemsOf(runId: string, request: ControlRequest): Record<string, string> {
  return {
    runId,
    verb: request.verb,
    requestedBy: request.requestedBy,
    via: request.via,
    at: new Date(request.at).toISOString(),
  };
}
