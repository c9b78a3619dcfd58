/**
 * The flags several commands share, parsed with Go's `flag` rules (`lib/go/flag.ts`) and read
 * one way: `-h`/`-help`, and the display flags `-output`, `-no-color` and `-force-color` with
 * their environment variables (Nomad's `command/meta.go` `Meta.FlagSet` and `Colorize`).
 */

import { GoFlagSyntaxError } from '../../go/errors';
import { type GoFlagResult, type GoFlagSpecs, parseGoFlags } from '../../go/flag';
import { goQuote } from '../../go/quote';
import type { Terminal } from '../terminal/terminal';
import { type CliUsageError, CommandArgumentError, GoFlagError, HelpRequestedError } from './errors';

/** `text`: Nomad's lines; `json`: progress events as JSON lines. */
export type OutputMode = 'text' | 'json';

/** How a command prints: `-output`, and whether colour is off or forced. */
export interface DisplayOptions {
  readonly output: OutputMode;
  /** `-no-color`, `NOMAD_CLI_NO_COLOR` or `NO_COLOR`. */
  readonly noColor: boolean;
  /** `-force-color` or `NOMAD_CLI_FORCE_COLOR` (loses to `noColor`). */
  readonly forceColor: boolean;
}

/** The display flags' definitions. */
export const DISPLAY_FLAGS: GoFlagSpecs = { output: 'string', 'no-color': 'bool', 'force-color': 'bool' };

/**
 * Parses `args` against `specs` with Go's rules.
 * @throws GoFlagError (a usage error: the message, then the help) for a command line Go refuses
 */
export function parseFlags(args: readonly string[], specs: GoFlagSpecs): GoFlagResult {
  try {
    return parseGoFlags(args, specs);
  } catch (error) {
    if (error instanceof GoFlagSyntaxError) throw new GoFlagError(error.message);
    throw error;
  }
}

/**
 * Parses `args` against `specs` plus `-h` and `-help`.
 * @throws HelpRequestedError when either is set; GoFlagError as {@link parseFlags}
 */
export function parseCommandFlags(args: readonly string[], specs: GoFlagSpecs): GoFlagResult {
  const flags = parseFlags(args, { ...specs, h: 'bool', help: 'bool' });
  if (flags.bools.get('h') || flags.bools.get('help')) throw new HelpRequestedError();
  return flags;
}

/**
 * The display options of parsed {@link DISPLAY_FLAGS}, over the environment's colour variables.
 * @throws CommandArgumentError for an `-output` other than `text` or `json`
 */
export function displayOptionsOf(
  flags: GoFlagResult,
  env: Readonly<Record<string, string | undefined>>,
): DisplayOptions {
  const output = flags.strings.get('output') ?? 'text';
  if (output !== 'text' && output !== 'json') {
    throw new CommandArgumentError(
      `Invalid -output value ${goQuote(output)}: valid options are "text" and "json"`,
    );
  }
  const set = (name: string) => (env[name] ?? '') !== '';
  return {
    output,
    noColor: flags.bools.get('no-color') === true || set('NOMAD_CLI_NO_COLOR') || set('NO_COLOR'),
    forceColor: flags.bools.get('force-color') === true || set('NOMAD_CLI_FORCE_COLOR'),
  };
}

/**
 * Prints a refused command line the way the commands beside `restart` do (`history`, `pause`,
 * `resume`, `stop`): the message on stderr; Nomad's way for the help, in full for `-help` (stdout,
 * exit 0) or a flag Go refuses (stderr), one pointer to it after a bad value.
 * @param command the command's name after `nomad-restart`, for the pointer
 * @returns the exit code
 */
export function reportCommandUsage(
  error: CliUsageError,
  terminal: Terminal,
  usage: { readonly help: string; readonly command: string },
): number {
  if (error.message !== '') terminal.write({ stream: 'stderr', text: error.message });
  if (error.showHelp)
    terminal.write({ stream: error.exitCode === 0 ? 'stdout' : 'stderr', text: usage.help });
  if (error.additionalHelp)
    terminal.write({
      stream: 'stderr',
      text: `For additional help try 'nomad-restart ${usage.command} -help'`,
    });
  return error.exitCode;
}
