/**
 * `nomad-restart fleet [options]`: many jobs restarted as one run of the fleet state machine,
 * in-process (local engine) or as an AWS execution, with a dry run that only plans. Everything
 * heavy is imported after validation, so a bad flag is reported before anything is loaded or
 * touched.
 */

import { ConsulConfigError } from '../../consul/errors';
import { processInterrupts } from '../terminal/interrupt';
import { createTerminal, useColor } from '../terminal/terminal';
import { CliUsageError } from './errors';
import { type FleetCommandLine, parseFleetArgs } from './fleet-command';
import { fleetHelp } from './fleet-help';
import { checkClientConfig, type RunContext, reportUsage, TLS_SKIP_VERIFY_WARNING } from './run-job-restart';

/** The additional-help line after a bad `fleet` command line. */
export const FLEET_ADDITIONAL_HELP_LINE = "For additional help try 'nomad-restart fleet -help'";

/** Runs `nomad-restart fleet` and returns its exit code (0 or 1). */
export async function runFleetCommand(args: readonly string[], ctx: RunContext): Promise<number> {
  const terminal = createTerminal(ctx);
  try {
    let line: FleetCommandLine;
    try {
      line = parseFleetArgs(args, { interactive: terminal.interactive, env: ctx.env });
    } catch (error) {
      if (error instanceof CliUsageError)
        return reportUsage(error, terminal, {
          help: fleetHelp(),
          additionalHelpLine: FLEET_ADDITIONAL_HELP_LINE,
        });
      if (error instanceof ConsulConfigError) {
        terminal.write({ stream: 'stderr', text: error.message });
        return 1;
      }
      throw error;
    }
    const color = useColor(ctx.stdout.isTTY === true, line.general);
    const { createFleetFormatter } = await import('../../fleet/format');
    const formatter = createFleetFormatter({
      verbose: line.fleet.jobOptions.verbose,
      color,
      uiColor: color && ctx.stdout.isTTY === true,
      maxJobs: line.fleet.maxJobs,
      maxFailedJobs: line.fleet.maxFailedJobs,
    });
    try {
      await checkClientConfig(line.general.nomad, line.general.consul);
    } catch (error) {
      terminal.write(formatter.job.renderError((error as Error).message));
      return 1;
    }
    if (line.general.nomad.tls?.insecure === true)
      terminal.write({ stream: 'stderr', text: TLS_SKIP_VERIFY_WARNING });
    const interrupts = ctx.onInterrupt ?? processInterrupts;
    if (line.fleet.jobOptions.dryRun)
      return await (await import('./fleet-dry-run')).fleetDryRun(line, formatter, terminal);
    if (line.engine.kind === 'aws') {
      const { runFleetOnAws } = await import('../terminal/fleet-aws');
      return await runFleetOnAws({ ...line, engine: line.engine }, formatter, terminal, interrupts, ctx.env);
    }
    const { runFleet } = await import('../terminal/run-fleet');
    return await runFleet(line, formatter, terminal, interrupts);
  } finally {
    terminal.close();
  }
}
