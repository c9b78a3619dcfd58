/**
 * `nomad-restart attach [options] <execution-arn>`: re-attaches this terminal to a restart
 * running on AWS (started by `-engine=aws`, the console, a schedule, another laptop, or a
 * follower that was closed) without starting anything: the run's lines so far, then its lines as
 * they come, its questions asked here, Ctrl-C as for a start, and Nomad's exit code at its end.
 * Flags are parsed by the command's own Go-style parser.
 */
import type { FleetProgressEvent } from '../../fleet/events';
import { createFleetFormatter } from '../../fleet/format';
import type { ProgressEvent } from '../../restart/events';
import { createFormatter, type Formatter } from '../../restart/format';
import { awsTerminalSession } from '../terminal/aws-engine';
import { fleetErrorWriter, fleetEventWriter, jobQuestionFormatter } from '../terminal/fleet-output';
import { type InterruptSource, processInterrupts } from '../terminal/interrupt';
import { operatorName } from '../terminal/operator';
import { eventWriter } from '../terminal/run-local';
import { createTerminal, type Terminal, useColor } from '../terminal/terminal';
import { DISPLAY_FLAGS, type DisplayOptions, displayOptionsOf, parseCommandFlags } from './command-flags';
import { CliUsageError, CommandArgumentError } from './errors';
import type { RunContext } from './run-job-restart';

/** The usage text of `attach` (stdout for `-help`, after the message for a bad command line). */
export const ATTACH_USAGE = `Usage: nomad-restart attach [options] <execution-arn>

  Follow a restart running on AWS Step Functions, started from anywhere: print
  its lines so far and as they come, through its continue-as-new executions;
  ask its questions here; Ctrl-C asks whether to stop it, as for a start. Exits
  with the restart's exit code when it ends. Starts nothing. Given a fleet
  execution (nomad-restart fleet -engine=aws, a fleet schedule), follows the
  fleet and each of its jobs' executions as they start.

  Needs states:GetExecutionHistory on the state machine's executions; answering
  needs states:SendTaskSuccess, stopping states:StopExecution (or the lock
  table's dynamodb:UpdateItem with NOMAD_RESTART_LOCK_TABLE set). A fleet also
  needs states:ListExecutions on its map run and states:GetExecutionHistory on
  the map run's and the one-job state machine's executions.

Options:

  -output=<text|json>  Nomad's lines (default), or progress events as JSON lines.
  -no-color            Disable colored output.
  -force-color         Force colored output.
`;

interface AttachLine extends DisplayOptions {
  readonly executionArn: string;
}

function parseAttachArgs(args: readonly string[], env: NodeJS.ProcessEnv): AttachLine {
  const flags = parseCommandFlags(args, DISPLAY_FLAGS);
  const [executionArn, ...extra] = flags.args;
  if (executionArn === undefined || extra.length > 0)
    throw new CommandArgumentError('This command takes one argument: <execution-arn>');
  return { executionArn, ...displayOptionsOf(flags, env) };
}

function reportUsage(error: CliUsageError, terminal: Terminal): number {
  if (error.message !== '') terminal.write({ stream: 'stderr', text: error.message });
  terminal.write({ stream: error.exitCode === 0 ? 'stdout' : 'stderr', text: ATTACH_USAGE });
  return error.exitCode;
}

/** Runs `attach` and returns the run's exit code (Nomad's: 0 or 1). */
export async function runAttachCommand(
  args: readonly string[],
  ctx: RunContext & { readonly onInterrupt?: InterruptSource },
): Promise<number> {
  const terminal = createTerminal(ctx);
  try {
    let line: AttachLine;
    try {
      line = parseAttachArgs(args, ctx.env);
    } catch (error) {
      if (error instanceof CliUsageError) return reportUsage(error, terminal);
      throw error;
    }
    const color = useColor(ctx.stdout.isTTY === true, line);
    const uiColor = color && ctx.stdout.isTTY === true;
    const formatterFor = (verbose: boolean) => createFormatter({ verbose, color, uiColor });
    const formatter = formatterFor(false);
    const { attachToRun, attachToFleet } = await import('../../engines/aws/index');
    // Lines are rendered as the run was started: verbose or not, known once it is found.
    // A one-job run emits its own events only; a fleet, its own and its jobs'.
    const oneJob = (f: Formatter) => {
      const write = eventWriter(line, f, terminal);
      return (event: ProgressEvent | FleetProgressEvent) => write(event as ProgressEvent);
    };
    let print = oneJob(formatter);
    const session = awsTerminalSession<ProgressEvent | FleetProgressEvent>(
      (event) => print(event),
      formatter,
      terminal,
      ctx.onInterrupt ?? processInterrupts,
    );
    try {
      const fleet = await attachToFleet({
        executionArn: line.executionArn,
        renderer: (options) => {
          const fleetFormatter = createFleetFormatter({
            verbose: options.jobOptions.verbose,
            color,
            uiColor,
            maxJobs: options.maxJobs,
            maxFailedJobs: options.maxFailedJobs,
          });
          const write = fleetEventWriter(line.output, fleetFormatter, terminal);
          print = (event) => write(event as FleetProgressEvent);
          return {
            emit: session.emit,
            askFor: (job) => session.desk.askForRunAs(jobQuestionFormatter(fleetFormatter, job)),
            printError: fleetErrorWriter(fleetFormatter, terminal, options.maxJobs),
          };
        },
        answeredBy: operatorName(ctx.env),
        signal: session.signal,
        printError: session.printError,
        env: ctx.env,
      });
      if (fleet !== undefined) return fleet.exitCode;
      const result = await attachToRun({
        executionArn: line.executionArn,
        renderer: (run) => {
          print = oneJob(formatterFor(run.verbose));
          return session.emit;
        },
        ask: session.ask,
        answeredBy: operatorName(ctx.env),
        signal: session.signal,
        printError: session.printError,
        env: ctx.env,
      });
      return result.exitCode;
    } finally {
      session.close();
    }
  } finally {
    terminal.close();
  }
}
