/**
 * `-engine=aws -state-machine-arn=<arn>` at this terminal: the same command line run as an AWS
 * execution by `lib/engines/aws`, with the same lines, the same questions asked here, and the same
 * exit codes. `lib/engines/aws` (and the AWS SDK behind it) is loaded only for this engine, so a
 * local run or a validation error does not pay for it.
 */

import type { Formatter } from '../restart/format';
import { heldOutput } from './held-output';
import { handleInterrupts, type InterruptSource } from './interrupt';
import type { JobRestartCommandLine } from './job-restart-command';
import { askAtTerminal } from './questions';
import { eventWriter } from './run-local';
import type { Terminal } from './terminal';

/** Runs the restart on AWS and returns Nomad's exit code. */
export async function runOnAws(
  line: JobRestartCommandLine & { engine: { kind: 'aws' } },
  formatter: Formatter,
  terminal: Terminal,
  interrupts: InterruptSource,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const { runRestartOnAws } = await import('../engines/aws/index');
  const output = heldOutput(eventWriter(line, formatter, terminal));
  const abort = new AbortController();
  const stopListening = handleInterrupts(interrupts, formatter, terminal, {
    asking: output.hold,
    answered: async (confirmed) => {
      if (!confirmed) return output.release();
      output.silence();
      abort.abort();
    },
  });
  try {
    const result = await runRestartOnAws({
      options: line.options,
      stateMachineArn: line.engine.stateMachineArn,
      emit: output.write,
      ask: (question) => askAtTerminal(question, formatter, terminal),
      signal: abort.signal,
      printError: (message) => terminal.write(formatter.renderError(message)),
      env,
    });
    return result.exitCode;
  } finally {
    stopListening();
  }
}
