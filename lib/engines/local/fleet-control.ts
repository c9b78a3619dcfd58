/**
 * Run control of a local fleet (docs/run-control.md): a fleet-level pause, resume or stop. A
 * pause starts no further job and is passed to every running job, which pauses at its own next
 * safe point; the jobs' pause questions are folded into ONE decision for the fleet (the fleet's
 * question, or a `resume`/`stop` request), passed to every job as its own request, which answers
 * its pause question. This module keeps only that state; the fleet engine passes requests to the
 * jobs and asks.
 */
import type { ControlRequest } from '../../control/requests';

/** How a paused fleet goes on: every job parked on the fleet's pause is answered with it. */
export type FleetDecision = 'resume' | 'stop';

/** What a fleet-level request changed, so the engine tells the running jobs (or nothing). */
export type FleetControlChange =
  | { readonly kind: 'paused'; readonly request: ControlRequest }
  | { readonly kind: 'resumed'; readonly request: ControlRequest }
  | { readonly kind: 'stopped'; readonly request: ControlRequest }
  /** Nothing to do: `reason` says why, in the words an operator is told. */
  | { readonly kind: 'ignored'; readonly reason: string };

type State =
  | { readonly kind: 'running' }
  | { readonly kind: 'paused'; readonly request: ControlRequest; readonly decided: Deferred<FleetDecision> }
  | { readonly kind: 'stopped'; readonly request: ControlRequest };

interface Deferred<T> {
  readonly promise: Promise<T>;
  readonly resolve: (value: T) => void;
}

function deferred<T>(): Deferred<T> {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

/** Whether two requests are the same one (`at` tells one request from a newer one of the same verb). */
export function sameRequest(a: ControlRequest, b: ControlRequest): boolean {
  return a.verb === b.verb && a.at === b.at && a.requestedBy === b.requestedBy && a.via === b.via;
}

/** A fleet's run-control state: running, paused (until one decision), or stopped (for good). */
export class FleetControl {
  private state: State = { kind: 'running' };
  /**
   * Every pause of the fleet so far: a job that read the fleet's pause from its lock just before
   * the decision reached it parks after the decision, and is still one of the fleet's.
   */
  private readonly pauses: ControlRequest[] = [];

  /** The pause in force, if the fleet is paused. */
  public get pausedBy(): ControlRequest | undefined {
    return this.state.kind === 'paused' ? this.state.request : undefined;
  }

  /** The stop that ends the fleet, once one was requested. */
  public get stoppedBy(): ControlRequest | undefined {
    return this.state.kind === 'stopped' ? this.state.request : undefined;
  }

  /**
   * Records a fleet-level request. A stop is final (a pause waiting for its decision gets `stop`);
   * a pause of a paused or stopped fleet, and a resume of a fleet that is not paused, change
   * nothing (nothing is passed to the jobs: a job's own pause is its own to resume).
   */
  public record(request: ControlRequest): FleetControlChange {
    const state = this.state;
    if (state.kind === 'stopped') return { kind: 'ignored', reason: 'the fleet is being stopped' };
    switch (request.verb) {
      case 'stop':
        this.state = { kind: 'stopped', request };
        if (state.kind === 'paused') state.decided.resolve('stop');
        return { kind: 'stopped', request };
      case 'pause':
        if (state.kind === 'paused') return { kind: 'ignored', reason: 'the fleet is paused already' };
        this.state = { kind: 'paused', request, decided: deferred() };
        this.pauses.push(request);
        return { kind: 'paused', request };
      case 'resume':
        if (state.kind !== 'paused') return { kind: 'ignored', reason: 'the fleet is not paused' };
        this.state = { kind: 'running' };
        state.decided.resolve('resume');
        return { kind: 'resumed', request };
    }
  }

  /**
   * Whether a job's pause is the fleet's (its question is the fleet's one question, answered by
   * the fleet's decision), not the job's own (asked as the job asks it).
   */
  public isFleetPause(pause: ControlRequest): boolean {
    return this.pauses.some((fleetPause) => sameRequest(fleetPause, pause));
  }

  /** The decision for the pause in force, once made; `undefined` when the fleet is not paused. */
  public decision(): Promise<FleetDecision> | undefined {
    return this.state.kind === 'paused' ? this.state.decided.promise : undefined;
  }

  /**
   * Whether the next job may start: at once while running; a paused fleet waits for its
   * decision; `false` once the fleet is stopped (no further job starts).
   */
  public async mayStartJob(): Promise<boolean> {
    for (;;) {
      const state = this.state;
      if (state.kind === 'running') return true;
      if (state.kind === 'stopped') return false;
      await state.decided.promise;
    }
  }
}
