/**
 * Where SIGINT comes from, apart from what the command does with it (interrupt.ts): the restart
 * command names its source before it knows whether the run reaches the point where it listens,
 * and a run its plan ends (a job not found) never loads the interrupt question's modules.
 */

/** Installs a SIGINT handler and returns its removal. */
export type InterruptSource = (handler: () => void) => () => void;

/** The process's own SIGINT. */
export const processInterrupts: InterruptSource = (handler) => {
  process.on('SIGINT', handler);
  return () => process.off('SIGINT', handler);
};
