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
 */
import { type ControlChannel, type ControlRequest, isControlVerb } from '../control/requests';
import type { NomadClient } from '../nomad/client';
import { UnexpectedResponseError } from '../nomad/errors';
import type { Variable } from '../nomad/variables';
import type { LockKey } from './job-lock';
import { CONTROL_REQUEST_PREFIX, controlRequestPath, type SharedLockLog } from './shared-lock-settings';

const CHANNELS: readonly ControlChannel[] = ['terminal', 'slack', 'webhook', 'console'];

/** A request as read from Nomad, with the index a checked delete of it needs. */
export interface StoredControlRequest {
  readonly request: ControlRequest;
  readonly modifyIndex: number;
}

/** The request in `variable`'s items for run `runId`; `undefined` for another run's, or one unreadable. */
function requestOf(variable: Variable, runId: string): ControlRequest | undefined {
  const items = variable.Items ?? {};
  const { verb, requestedBy, via, at } = {
    verb: items['verb'],
    requestedBy: items['requestedBy'],
    via: items['via'],
    at: Date.parse(items['at'] ?? ''),
  };
  if (items['runId'] !== runId || !isControlVerb(verb) || requestedBy === undefined) return undefined;
  if (!CHANNELS.includes(via as ControlChannel) || Number.isNaN(at)) return undefined;
  return { verb, requestedBy, via: via as ControlChannel, at };
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
    await this.nomad.variables().write(
      controlRequestPath(key.jobId),
      {
        runId,
        verb: request.verb,
        requestedBy: request.requestedBy,
        via: request.via,
        at: new Date(request.at).toISOString(),
      },
      { namespace: key.namespace },
    );
  }

  /**
   * The request recorded for run `runId`, if any. A token that may not `read` the variable reads
   * none (the run goes on, only unreachable from other terminals), reported as a warning.
   */
  public async read(key: LockKey, runId: string): Promise<StoredControlRequest | undefined> {
    const path = controlRequestPath(key.jobId);
    let variable: Variable | undefined;
    try {
      variable = await this.nomad.variables().read(path, { namespace: key.namespace });
    } catch (err) {
      if (!(err instanceof UnexpectedResponseError) || err.statusCode !== 403) throw err;
      this.log?.warn(
        `Run-control requests from other terminals are not read: the token needs the variables capabilities "read" and "destroy" on path "${CONTROL_REQUEST_PREFIX}*"`,
        { namespace: key.namespace, path },
      );
      return undefined;
    }
    const request = variable === undefined ? undefined : requestOf(variable, runId);
    if (request === undefined || variable?.ModifyIndex === undefined) return undefined;
    return { request, modifyIndex: variable.ModifyIndex };
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
