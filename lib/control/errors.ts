/**
 * Why a run-control request (`nomad-restart pause|resume|stop`, the Slack buttons, the webhook;
 * lib/control/requests.ts) was refused before anything was written: the run named is not running,
 * or the request conflicts with where the run is (nothing to resume, already paused). Each message
 * names the run or job and quotes what was given.
 */
import { NamedError } from '../errors/named-error';

/** Base class: a request that cannot reach a run; nothing was written. */
export class RunControlError extends NamedError {}

/** No run of the job holds its lock, the execution does not exist, or its run has ended. */
export class RunNotRunningError extends RunControlError {}

/** The request conflicts with where the run is: nothing changed. */
export class RunControlConflictError extends RunControlError {}

/** A `resume` for a run with no pause recorded or parked. */
export class RunNotPausedError extends RunControlConflictError {}

/** A `pause` for a run already parked on its pause question. */
export class RunAlreadyPausedError extends RunControlConflictError {}
