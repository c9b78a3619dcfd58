/**
 * The command line of `nomad-restart [options] <job>`: exactly the flags of `nomad job
 * restart` (Nomad's `command/job_restart.go` `Help`, `parseAndValidate`) and Nomad's general
 * options, parsed with Go's `flag` rules and validated in Nomad's order with Nomad's messages, plus
 * our own options.
 */

import { RestartValidationError } from '../../restart/errors';
import type { RestartOptions } from '../../restart/options';
import { validateRestartFields } from '../../restart/validate';
import type { OutputMode } from './command-flags';
import { parseFlags } from './command-flags';
import { CommandArgumentError, HelpRequestedError } from './errors';
import {
  type EngineChoice,
  type Env,
  engineOf,
  type GeneralOptions,
  generalOptionsOf,
  nomadConfigOf,
  RESTART_COMMAND_FLAGS,
  rawRestartFieldsOf,
  wantsHelp,
} from './restart-flags';

export type { EngineChoice, Env, GeneralOptions } from './restart-flags';

/** A parsed and validated command line. */
export interface JobRestartCommandLine {
  options: RestartOptions;
  general: GeneralOptions;
  engine: EngineChoice;
  output: OutputMode;
}

/**
 * Parses and validates `nomad-restart [options] <job>` arguments (without the program name).
 *
 * @param ctx.interactive stdin and stdout are both terminals (`ask` needs it, or `-yes`).
 * @param ctx.env the environment, for `NOMAD_*` defaults.
 * @throws HelpRequestedError for `-h`/`-help`; GoFlagError for flag syntax; CommandArgumentError
 *   for a wrong argument count or a bad value (message exactly Nomad's).
 */
export function parseJobRestartArgs(
  args: readonly string[],
  ctx: { interactive: boolean; env: Env },
): JobRestartCommandLine {
  if (wantsHelp(args)) throw new HelpRequestedError();
  const flags = parseFlags(args, RESTART_COMMAND_FLAGS);

  if (flags.args.length !== 1) throw new CommandArgumentError('This command takes one argument: <job>');

  const nomad = nomadConfigOf(flags, ctx.env);
  let options: RestartOptions;
  try {
    options = validateRestartFields(rawRestartFieldsOf(flags, flags.args[0] ?? '', nomad), {
      interactive: ctx.interactive,
    });
  } catch (err) {
    if (err instanceof RestartValidationError) throw new CommandArgumentError(err.message, { cause: err });
    throw err;
  }
  const engine = engineOf(flags, options.dryRun);
  const { general, output } = generalOptionsOf(flags, ctx.env, nomad, options.waitHealthy !== undefined);
  return { options, general, engine, output };
}
export { jobRestartHelp } from './job-restart-help';
