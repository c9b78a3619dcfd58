/**
 * `nomad-restart [options] <job>`: Nomad's `job restart` command line, run through the
 * synthesized state machine (local engine) or an AWS execution. Everything heavy is imported
 * after validation, so a bad flag is reported before anything is loaded or touched; the engine
 * a run uses (run-local.ts or aws-engine.ts) is imported once the run gets to it, as a bundled
 * module's static imports are evaluated at every start (docs/benchmarks.md, "Start-up").
 */

import { AlarmAccessError, AlarmNotFoundError } from '../../alarms/errors';
import type { ConsulClientConfig } from '../../consul/config';
import { ConsulConfigError } from '../../consul/errors';
import type { NomadClientConfig } from '../../nomad/config';
import type { AlarmReader } from '../../restart/alarms';
import { ADDITIONAL_HELP_LINE, createFormatter } from '../../restart/format';
import type { AlarmAccessOptions } from '../terminal/alarm-access';
import { type InterruptSource, processInterrupts } from '../terminal/interrupt-source';
import { withJsonErrors } from '../terminal/json-output';
import { createTerminal, type Terminal, type TerminalStreams, useColor } from '../terminal/terminal';
import { CliUsageError } from './errors';
import { type JobRestartCommandLine, jobRestartHelp, parseJobRestartArgs } from './job-restart-command';

/** Where the command runs: its streams, its environment, and its interrupts. */
export interface RunContext extends TerminalStreams {
  readonly env: NodeJS.ProcessEnv;
  /** Installs the SIGINT handler; returns its removal. @default the process's SIGINT */
  readonly onInterrupt?: InterruptSource;
  /** How `-stop-on-alarm` reaches CloudWatch (tests). @default the SDK's default chain */
  readonly alarmAccess?: AlarmAccessOptions;
}

/** The alarm reader a local run with `-stop-on-alarm` needs, checked; none without the flag. */
async function alarmReaderFor(
  alarms: readonly string[] | undefined,
  access: AlarmAccessOptions | undefined,
): Promise<AlarmReader | undefined> {
  if (alarms === undefined || alarms.length === 0) return undefined;
  const { terminalAlarmReader } = await import('../terminal/alarm-access');
  return terminalAlarmReader(alarms, access);
}

/**
 * Go's flag package prints the usage on stdout for `-help` and a bad flag; Nomad's messages go to stderr.
 * @param usage the command's help text, and its additional-help line
 */
export function reportUsage(
  error: CliUsageError,
  terminal: Terminal,
  usage: { readonly help: string; readonly additionalHelpLine: string },
): number {
  if (error.message !== '') terminal.write({ stream: 'stderr', text: error.message });
  if (error.showHelp) terminal.write({ stream: 'stdout', text: usage.help });
  if (error.additionalHelp) terminal.write({ stream: 'stderr', text: usage.additionalHelpLine });
  return error.exitCode;
}

/**
 * Builds the client once (and closes it) so a bad address, CA file or key fails with Nomad's
 * `Error initializing client: ...` before anything else happens.
 */
export async function checkClientConfig(
  config: NomadClientConfig,
  consul?: ConsulClientConfig,
): Promise<void> {
  const { NomadClient } = await import('../../nomad/index');
  await NomadClient.create(config).close();
  // Consul's too, with -wait-healthy: its CA, certificate and key (`Error connecting to Consul agent: ...`).
  if (consul !== undefined) await (await import('../../consul/client')).ConsulClient.create(consul).close();
}

/**
 * Beyond Nomad, on stderr: `-tls-skip-verify` (or `NOMAD_SKIP_VERIFY`) lets anyone on the path to
 * Nomad pose as it and read the token, so the command says so each time (verification is on by
 * default).
 */
export const TLS_SKIP_VERIFY_WARNING =
  "Warning: TLS verification is off (-tls-skip-verify or NOMAD_SKIP_VERIFY): the Nomad server's certificate is not checked, so anyone between here and Nomad can pose as it and read the ACL token";

/** Runs the command and returns its exit code (Nomad's: 0 or 1). */
export async function runJobRestart(args: readonly string[], ctx: RunContext): Promise<number> {
  const terminal = createTerminal(ctx);
  try {
    let line: JobRestartCommandLine;
    try {
      line = parseJobRestartArgs(args, { interactive: terminal.interactive, env: ctx.env });
    } catch (error) {
      if (error instanceof CliUsageError)
        return reportUsage(error, terminal, {
          help: jobRestartHelp(),
          additionalHelpLine: ADDITIONAL_HELP_LINE,
        });
      // Consul's CLI's own wording (`Error connecting to Consul agent: ...`), before anything is touched.
      if (error instanceof ConsulConfigError) {
        terminal.write({ stream: 'stderr', text: error.message });
        return 1;
      }
      throw error;
    }
    const color = useColor(ctx.stdout.isTTY === true, line.general);
    const uiColor = color && ctx.stdout.isTTY === true;
    const text = createFormatter({ verbose: line.options.verbose, color, uiColor });
    // With `-output json` every fatal error is one JSON event on stdout, not a line on stderr.
    const formatter = line.output === 'json' ? withJsonErrors(text, line.options) : text;
    try {
      await checkClientConfig(line.general.nomad, line.general.consul);
    } catch (error) {
      terminal.write(formatter.renderError((error as Error).message));
      return 1;
    }
    if (line.general.nomad.tls?.insecure === true)
      terminal.write({ stream: 'stderr', text: TLS_SKIP_VERIFY_WARNING });
    const interrupts = ctx.onInterrupt ?? processInterrupts;
    try {
      if (line.options.dryRun) {
        const { dryRun } = await import('./dry-run');
        return await dryRun(line, formatter, terminal);
      }
      if (line.engine.kind === 'aws') {
        const { runOnAws } = await import('../terminal/aws-engine');
        return await runOnAws({ ...line, engine: line.engine }, formatter, terminal, interrupts, ctx.env);
      }
      // -stop-on-alarm reads CloudWatch from here: refused now, before anything is touched, if it cannot.
      let alarms: AlarmReader | undefined;
      try {
        alarms = await alarmReaderFor(line.options.stopOnAlarms, ctx.alarmAccess);
      } catch (error) {
        if (!(error instanceof AlarmAccessError || error instanceof AlarmNotFoundError)) throw error;
        terminal.write(formatter.renderError(error.message));
        return 1;
      }
      const { runLocal } = await import('../terminal/run-local');
      const result = await runLocal(line, formatter, terminal, interrupts, ctx, alarms);
      const { exitCodeOf } = await import('../terminal/exit-code');
      return exitCodeOf(result, formatter, terminal);
    } catch (error) {
      // A failure no step reported (a dry run's unknown job): text output leaves it to the
      // program's last resort (its message on stderr); a JSON reader gets it as the error event.
      if (line.output !== 'json') throw error;
      terminal.write(formatter.renderError(error instanceof Error ? error.message : String(error)));
      return 1;
    }
  } finally {
    terminal.close();
  }
}
