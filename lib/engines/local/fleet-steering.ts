/**
 * The fleet engine's side of run control (docs/run-control.md, "A fleet"): a fleet-level request
 * recorded in {@link FleetControl}, passed to every running job on its own lock (each acts on it
 * at its own next safe point, as a one-job run does), and the fleet's ONE pause question: asked
 * once per pause, withdrawn when a `resume` or `stop` request decides first.
 */
import type { ControlRequest } from '../../control/requests';
import type { LocalRestart, PromptReply } from './engine';
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
  readonly askPause?: FleetPauseAsker;
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

  /** Passes the request in force to a job that starts running now (it started before the request). */
  public async jobStarted(job: LocalRestart): Promise<void> {
    const inForce = this.control.stoppedBy ?? this.control.pausedBy;
    if (inForce !== undefined) await job.requestControl(inForce);
  }

  /**
   * A job's pause question when its pause is the fleet's: never shown (the fleet asks its one
   * question); it waits for the fleet's decision, which reaches the job as its own `resume` or
   * `stop` request and answers it there, attributed, withdrawing this. `undefined` for the job's
   * own pause (its question is asked as any job's).
   */
  public foldedPauseQuestion(
    pause: ControlRequest,
    withdrawn: AbortSignal,
  ): Promise<PromptReply> | undefined {
    if (!this.control.isFleetPause(pause)) return undefined;
    return new Promise((resolve) => {
      const done = () => resolve({ kind: 'withdrawn' });
      if (withdrawn.aborted) done();
      else withdrawn.addEventListener('abort', done, { once: true });
    });
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
