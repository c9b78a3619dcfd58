/**
 * `nomad-restart fleet -engine=aws`: the fleet run on AWS (`lib/engines/aws/run-fleet-on-aws.ts`)
 * at this terminal: the fleet's lines and each job's as they happen, each job's questions asked
 * here one at a time (naming the job), and SIGINT as for one job (`aws-engine.ts`).
 */

import type { FleetProgressEvent } from '../../fleet/events';
import type { FleetFormatter } from '../../fleet/format';
import type { FleetCommandLine } from '../commands/fleet-command';
import { awsTerminalSession } from './aws-engine';
import { fleetErrorWriter, fleetEventWriter, jobQuestionFormatter } from './fleet-output';
import type { InterruptSource } from './interrupt';
import { operatorName } from './operator';
import type { Terminal } from './terminal';

/** Runs the fleet on AWS and returns its exit code. */
export async function runFleetOnAws(
  line: FleetCommandLine & { engine: { kind: 'aws' } },
  formatter: FleetFormatter,
  terminal: Terminal,
  interrupts: InterruptSource,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const { runFleetOnAws: run } = await import('../../engines/aws/index');
  const session = awsTerminalSession<FleetProgressEvent>(
    fleetEventWriter(line.output, formatter, terminal),
    formatter.job,
    terminal,
    interrupts,
  );
  const printError = fleetErrorWriter(formatter, terminal, line.fleet.maxJobs);
  try {
    const result = await run({
      fleet: line.fleet,
      stateMachineArn: line.engine.stateMachineArn,
      emit: session.emit,
      askFor: (job) => session.desk.askForRunAs(jobQuestionFormatter(formatter, job)),
      operator: operatorName(env),
      signal: session.signal,
      printError,
      env,
    });
    return result.exitCode;
  } finally {
    session.close();
  }
}
