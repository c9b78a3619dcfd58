/**
 * SIGINT (Nomad's `command/job_restart.go` `handleSignal`). While a question is open the interrupt
 * belongs to it (its read ends and its default applies); otherwise Nomad's interrupt question is
 * asked, in its turn at the terminal (`TerminalDesk`: no other question can take the reply meant
 * for it), and a confirmation prints `\nCanceling job restart process` before the run is told to
 * stop.
 */
import { interruptQuestion } from '../../restart/questions';
import { askAtTerminal } from './questions';
import type { TerminalDesk } from './terminal-desk';

/** Installs a SIGINT handler and returns its removal. */
export type InterruptSource = (handler: () => void) => () => void;

/** The process's own SIGINT. */
export const processInterrupts: InterruptSource = (handler) => {
  process.on('SIGINT', handler);
  return () => process.off('SIGINT', handler);
};

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
      const answer = await askAtTerminal(interruptQuestion(), formatter, terminal);
      asking = false;
      const confirmed = answer.kind === 'yes';
      if (confirmed) {
        hooks.confirming?.();
        terminal.write(formatter.renderInterruptConfirmed());
      }
      await hooks.answered(confirmed);
    });
  });
}
