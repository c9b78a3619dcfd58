/**
 * SIGINT (Nomad's `command/job_restart.go` `handleSignal`). While a question is open the interrupt
 * belongs to it (its read ends and its default applies); otherwise Nomad's interrupt question is
 * asked, in its turn at the terminal (`TerminalDesk`: no other question can take the reply meant
 * for it), and a confirmation prints `\nCanceling job restart process` before the run is told to
 * stop. Beyond Nomad, where the run can pause (run control, lib/control/requests.ts), the same
 * question, in Nomad's words, also takes `p` or `pause`: the run goes on and pauses at its next
 * safe point, before its next batch.
 */
import type { ControlRequest } from '../../control/requests';
import { interruptQuestion } from '../../restart/questions';
import type { InterruptSource } from './interrupt-source';
import { operatorName } from './operator';
import { askAtTerminal } from './questions';
import type { TerminalDesk } from './terminal-desk';

export { type InterruptSource, processInterrupts } from './interrupt-source';

/** What the run does around the interrupt question. */
export interface InterruptHooks {
  /** The question is about to be asked (hold new work and output). */
  asking(): void;
  /** Confirmed, just before `Canceling job restart process` is printed. */
  confirming?(): void;
  /**
   * The question was answered; `confirmed` when the user wants the restart stopped. No other
   * question is asked before this returns.
   */
  answered(confirmed: boolean): Promise<void>;
  /**
   * Answered `p` or `pause`: records a pause request for the run, before `answered(false)` lets it
   * go on to its next safe point. Absent: the run cannot pause, and `p` is an invalid answer.
   */
  pause?(): Promise<void>;
}

/** The replies that pause the run instead of answering Nomad's interrupt question (any case). */
const PAUSE_REPLIES: ReadonlySet<string> = new Set(['p', 'pause']);

/** A pause asked for at the interrupt question. */
const PAUSE = { kind: 'pause' } as const;

/** Told at the terminal once a pause is recorded (beyond Nomad, on stderr). */
export const PAUSE_RECORDED_NOTICE = 'Pause requested: the restart pauses before its next batch';

/**
 * The {@link InterruptHooks.pause} of a run that takes control requests (a job's run, a fleet's):
 * a `pause` by this terminal's operator, asked now.
 */
export function pauseThrough(run: {
  requestControl(request: ControlRequest): Promise<unknown>;
}): () => Promise<void> {
  return async () => {
    await run.requestControl({ verb: 'pause', requestedBy: operatorName(), via: 'terminal', at: Date.now() });
  };
}

/** Handles interrupts for one run until the returned function is called. */
export function handleInterrupts(
  source: InterruptSource,
  desk: TerminalDesk,
  hooks: InterruptHooks,
): () => void {
  const { formatter, terminal } = desk;
  let asking = false;
  return source(() => {
    if (terminal.reading) return terminal.interruptRead();
    if (asking) return;
    asking = true;
    hooks.asking();
    void desk.exclusive(async () => {
      const pause = hooks.pause;
      const answer = await askAtTerminal(interruptQuestion(), formatter, terminal, (text) =>
        pause !== undefined && PAUSE_REPLIES.has(text.toLowerCase()) ? PAUSE : undefined,
      );
      asking = false;
      if (answer.kind === 'pause') {
        await pause?.();
        terminal.notice(PAUSE_RECORDED_NOTICE);
      }
      const confirmed = answer.kind === 'yes';
      if (confirmed) {
        hooks.confirming?.();
        terminal.write(formatter.renderInterruptConfirmed());
      }
      await hooks.answered(confirmed);
    });
  });
}
