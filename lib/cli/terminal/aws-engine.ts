/**
 * `-engine=aws -state-machine-arn=<arn>` and `attach <execution-arn>` at this terminal: the run
 * on AWS (`lib/engines/aws`) with the same lines, the same questions asked here and the same
 * exit codes. `lib/engines/aws` (and the AWS SDK behind it) is loaded only for these, so a local
 * run or a validation error does not pay for it.
 *
 * Around an interrupt: Step Functions cannot pause an execution, so while Nomad's interrupt
 * question is open the run goes on in AWS. Its lines are held back and printed once the
 * question is answered, whatever the answer (they happened); its own questions wait behind the
 * interrupt question (`TerminalDesk`). A confirmed stop prints nothing after
 * `Canceling job restart process`, as Nomad.
 */

import type { AskQuestion } from '../../engines/aws/question-bridge';
import type { ProgressEvent } from '../../restart/events';
import type { Formatter } from '../../restart/format';
import type { JobRestartCommandLine } from '../commands/job-restart-command';
import { heldOutput } from './held-output';
import { handleInterrupts, type InterruptSource } from './interrupt';
import { operatorName } from './operator';
import { eventWriter } from './run-local';
import type { Terminal } from './terminal';
import { TerminalDesk } from './terminal-desk';

/** The terminal's side of one run on AWS. */
export interface AwsTerminalSession<E = ProgressEvent> {
  /** Prints a progress event (held while the interrupt question is open). */
  readonly emit: (event: E) => void;
  readonly ask: AskQuestion;
  /** The questions of this terminal, in its turns (`TerminalDesk`). */
  readonly desk: TerminalDesk;
  /** Aborted once an interrupt is confirmed. */
  readonly signal: AbortSignal;
  readonly printError: (message: string) => void;
  /** Stops handling interrupts. */
  close(): void;
}

/**
 * Wires the terminal for a run on AWS: interrupts, held lines, one question at a time.
 * @param print renders one event (called in order, never while the interrupt question is open)
 */
export function awsTerminalSession<E = ProgressEvent>(
  print: (event: E) => void,
  formatter: Formatter,
  terminal: Terminal,
  interrupts: InterruptSource,
): AwsTerminalSession<E> {
  const output = heldOutput(print);
  const abort = new AbortController();
  const desk = new TerminalDesk(formatter, terminal);
  const close = handleInterrupts(interrupts, desk, {
    asking: output.hold,
    // The batches that ran meanwhile did run: their lines come before the cancel's.
    confirming: () => {
      output.release();
      output.silence();
    },
    answered: async (confirmed) => {
      if (!confirmed) return output.release();
      abort.abort();
    },
  });
  return {
    emit: output.write,
    ask: desk.askForRun,
    desk,
    signal: abort.signal,
    printError: (message) => terminal.write(formatter.renderError(message)),
    close,
  };
}

/** Runs the restart on AWS and returns Nomad's exit code. */
export async function runOnAws(
  line: JobRestartCommandLine & { engine: { kind: 'aws' } },
  formatter: Formatter,
  terminal: Terminal,
  interrupts: InterruptSource,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const { runRestartOnAws } = await import('../../engines/aws/index');
  const session = awsTerminalSession(eventWriter(line, formatter, terminal), formatter, terminal, interrupts);
  try {
    const result = await runRestartOnAws({
      options: line.options,
      stateMachineArn: line.engine.stateMachineArn,
      emit: session.emit,
      ask: session.ask,
      operator: operatorName(env),
      signal: session.signal,
      printError: session.printError,
      env,
    });
    return result.exitCode;
  } finally {
    session.close();
  }
}
