/**
 * What the safe point before a batch comes to when it stops the run there or parks a question
 * (guard-step.ts, control-step.ts).
 */
import type { Decision, GuardState, Progress, RunRef } from '../../workflow/payloads';
import type { StepEvents } from '../../workflow/restart-steps';

/** What the safe point before a batch came to, when it stops the run there. */
export interface GuardStop extends StepEvents {
  readonly guard: GuardState;
  /** The counters with the stop's error counted (a lost lock); absent when they are unchanged. */
  readonly progress?: Progress;
  /** The pause question to park (`guard.paused`); absent otherwise. */
  readonly decision?: Decision;
  /** The run with the time of the renewal made before the pause question; absent otherwise. */
  readonly run?: RunRef;
}

/** The run going on past (part of) the safe point: its state's run, with the times of what it did there. */
export interface GuardPass {
  readonly run: RunRef;
}
