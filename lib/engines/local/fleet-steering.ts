/**
 * The fleet engine's side of run control (docs/run-control.md, "A fleet"): a fleet-level request
 * recorded in {@link FleetControl}, passed to every running job on its own lock (each acts on it
 * at its own next safe point, as a one-job run does), and the fleet's ONE pause question: asked
 * once per pause, withdrawn when a `resume` or `stop` request decides first.
 */
import type { ControlRequest } from '../../control/requests';
import type { LocalRestart, LocalRestartRequest, PromptReply } from './engine';
import { FleetControl, type FleetControlChange, type FleetDecision } from './fleet-control';

/**
 * Asks the fleet's pause question (where the operator is: the terminal) until it is answered, or
 * until `withdrawn` aborts (a request decided first); `undefined` when it cannot be answered here
 * (then only a `resume` or `stop` request decides).
 */
export type FleetPauseAsker = (
  pause: ControlRequest,
  withdrawn: AbortSignal,
) => Promise<{ readonly decision: FleetDecision; readonly answeredBy: string } | undefined>;

/** The running jobs of a fleet a request is passed to, and how a stop of the fleet is carried out. */
export interface FleetSteeringHooks {
  /** The jobs running now (each one-job run the fleet started and that has not ended). */
  readonly running: () => Iterable<LocalRestart>;
  /** Starts no further job and stops the fleet once its running jobs ended (as a cancel does). */
  readonly stopFleet: () => void;
  /** The fleet's pause question. @default - none: only requests decide */
  readonly askPause?: FleetPauseAsker | undefined;
  /** The clock a decision answered at the terminal is dated by (Unix ms). */
  readonly now: () => number;
}

/** A fleet's run control: its state, and what each request does to the running jobs. */
export class FleetSteering {
  public readonly control = new FleetControl();

  public constructor(private readonly hooks: FleetSteeringHooks) {}

  /**
   * Records a fleet-level request and passes it to every running job; a pause also asks the
   * fleet's question. Answers what changed (`ignored`, with why, when nothing did).
   */
  public async request(request: ControlRequest): Promise<FleetControlChange> {
    const change = this.control.record(request);
    if (change.kind === 'ignored') return change;
    if (change.kind === 'stopped') this.hooks.stopFleet();
    // Each running job acts on it at its own next safe point; a `resume` reaches a job that has
    // not got there yet as "resume with nothing parked" (its pause cleared, it goes on).
    await Promise.all([...this.hooks.running()].map((job) => job.requestControl(request)));
    if (change.kind === 'paused') void this.ask(request);
    return change;
  }

  /**
   * Whether the next job may start: at once while running, after the decision while paused (the
   * Map's `-max-jobs` slots stay taken); `false` once the fleet is stopped or `signal` aborted.
   */
  public async mayStartJob(signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return false;
    let onAbort = () => {};
    const aborted = new Promise<boolean>((resolve) => {
      onAbort = () => resolve(false);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([this.control.mayStartJob(), aborted]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** Passes the request in force to a job that starts running now (it started before the request). */
  public async jobStarted(job: LocalRestart): Promise<void> {
    const inForce = this.control.stoppedBy ?? this.control.pausedBy;
    if (inForce !== undefined) await job.requestControl(inForce);
  }

  /**
   * A job's `emit` and `prompt` with its pause question folded into the fleet's when its pause is
   * the fleet's: never shown (the fleet asks its one question), it waits for the fleet's decision,
   * which reaches the job as its own `resume` or `stop` request and answers it there, attributed,
   * withdrawing the prompt. A job's own pause is asked as any of its questions.
   */
  public jobQuestions(
    job: Pick<LocalRestartRequest, 'emit' | 'prompt'>,
  ): Pick<LocalRestartRequest, 'emit' | 'prompt'> {
    let lastPause: ControlRequest | undefined;
    return {
      emit: (event) => {
        if (event.type === 'paused') lastPause = event.request;
        job.emit(event);
      },
      // Only the pause question can be withdrawn (lib/engines/local/engine.ts `prompt`).
      prompt: async (prompt, invalid, withdrawn): Promise<PromptReply> => {
        if (withdrawn === undefined || lastPause === undefined || !this.control.isFleetPause(lastPause))
          return job.prompt(prompt, invalid, withdrawn);
        await untilAborted(withdrawn);
        return { kind: 'withdrawn' };
      },
    };
  }

  /** Asks the fleet's question for `pause` and records its answer, unless a request decides first. */
  private async ask(pause: ControlRequest): Promise<void> {
    const asker = this.hooks.askPause;
    const decided = this.control.decision();
    if (asker === undefined || decided === undefined) return;
    const withdrawn = new AbortController();
    void decided.then(() => withdrawn.abort());
    const answer = await asker(pause, withdrawn.signal);
    if (answer === undefined || withdrawn.signal.aborted) return;
    await this.request({
      verb: answer.decision,
      requestedBy: answer.answeredBy,
      via: 'terminal',
      at: this.hooks.now(),
    });
  }
}

/** Resolves once `signal` aborts (at once when it has). */
export function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
