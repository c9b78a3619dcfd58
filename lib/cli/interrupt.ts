/**
 * SIGINT (spec §2.9). While a question is open the interrupt belongs to it (its read ends and
 * its default applies); otherwise Nomad's interrupt question is asked, and a confirmation
 * prints `\nCanceling job restart process` before the run is told to stop.
 */
import type { Formatter } from '../restart/format';
import { interruptQuestion } from '../restart/questions';
import { askAtTerminal } from './questions';
import type { Terminal } from './terminal';

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
  /** The question was answered; `confirmed` when the user wants the restart stopped. */
  answered(confirmed: boolean): Promise<void>;
}

/** Handles interrupts for one run until the returned function is called. */
export function handleInterrupts(
  source: InterruptSource,
  formatter: Formatter,
  terminal: Terminal,
  hooks: InterruptHooks,
): () => void {
  let asking = false;
  return source(() => {
    if (terminal.reading) return terminal.interruptRead();
    if (asking) return;
    asking = true;
    hooks.asking();
    void askAtTerminal(interruptQuestion(), formatter, terminal).then(async (answer) => {
      asking = false;
      const confirmed = answer.kind === 'yes';
      if (confirmed) terminal.write(formatter.renderInterruptConfirmed());
      await hooks.answered(confirmed);
    });
  });
}
