/**
 * Progress lines around Nomad's interrupt question (`command/job_restart.go` `shouldExit`): held
 * back while the question is open, printed when it is declined, dropped for good once it is
 * confirmed (Nomad exits at once and prints nothing more of the batch in flight). On AWS, where the
 * run went on meanwhile, the held lines are released before the output is silenced
 * (`aws-engine.ts`).
 */
import type { ProgressEvent } from '../../restart/events';

export interface HeldOutput<E = ProgressEvent> {
  /** Prints `event` now, keeps it for later, or drops it, depending on the question. */
  readonly write: (event: E) => void;
  /** The interrupt question is open: keep what comes. */
  hold(): void;
  /** Declined: print what was kept, then print as it comes again. */
  release(): void;
  /** Confirmed: nothing more is printed. */
  silence(): void;
}

export function heldOutput<E = ProgressEvent>(print: (event: E) => void): HeldOutput<E> {
  let held: E[] | undefined;
  let silenced = false;
  return {
    write: (event) => {
      if (silenced) return;
      if (held) held.push(event);
      else print(event);
    },
    hold: () => {
      held ??= [];
    },
    release: () => {
      const events = held ?? [];
      held = undefined;
      for (const event of events) print(event);
    },
    silence: () => {
      silenced = true;
      held = undefined;
    },
  };
}
