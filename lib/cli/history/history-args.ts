/**
 * The command line of `nomad-restart history [options] [<job> [<run ID prefix>]]`, checked before
 * anything is read: which history (one job's, the fleet runs' with `-fleets`, or every one of the
 * namespace), how many runs (`-n`), how to print them, and Nomad's general options.
 */
import { goQuote } from '../../go/quote';
import type { NomadClientConfig } from '../../nomad/config';
import {
  DISPLAY_FLAGS,
  displayOptionsOf,
  type OutputMode,
  parseCommandFlags,
} from '../commands/command-flags';
import { CommandArgumentError, GoFlagError } from '../commands/errors';
import { NOMAD_GENERAL_FLAGS, nomadConfigOf } from '../commands/restart-flags';

/** How many runs are listed without `-n`. */
export const DEFAULT_HISTORY_COUNT = 20;

/** The command line, checked. */
export interface HistoryLine {
  /** Whose history: one job's, the namespace's fleet runs', or (neither) every one of the namespace. */
  readonly target:
    | { readonly kind: 'job'; readonly jobId: string }
    | { readonly kind: 'fleets' }
    | { readonly kind: 'all' };
  /** One run in full: the runs whose ID (or execution name) starts with it. */
  readonly prefix?: string;
  /** `-namespace`, `NOMAD_NAMESPACE` or `default`; `*` for every namespace the token may list. */
  readonly namespace: string;
  /** `-n`: at most this many runs, the newest. */
  readonly count: number;
  readonly output: OutputMode;
  readonly nomad: NomadClientConfig;
}

/**
 * `-n`'s value, read as Go's `flag.Int` reads it (base 10, a sign allowed), then bounded.
 * @throws GoFlagError (Go's `invalid value ... for flag -n: parse error`, then the help) for a
 *   value that is no integer; CommandArgumentError for one that is not positive
 */
function countOf(text: string | undefined): number {
  if (text === undefined) return DEFAULT_HISTORY_COUNT;
  if (!/^[+-]?\d+$/.test(text) || !Number.isSafeInteger(Number(text)))
    throw new GoFlagError(`invalid value ${goQuote(text)} for flag -n: parse error`);
  const count = Number(text);
  if (count < 1)
    throw new CommandArgumentError(
      `Invalid -n value ${goQuote(text)}: the number of runs to list must be 1 or more`,
    );
  return count;
}

/**
 * Parses `history`'s arguments.
 * @throws CliUsageError for `-help`, a flag Go refuses, or a bad argument or option
 */
export function parseHistoryArgs(args: readonly string[], env: NodeJS.ProcessEnv): HistoryLine {
  const flags = parseCommandFlags(args, {
    ...NOMAD_GENERAL_FLAGS,
    n: 'string',
    fleets: 'bool',
    ...DISPLAY_FLAGS,
  });
  const count = countOf(flags.strings.get('n'));
  const { output } = displayOptionsOf(flags, env);
  const nomad = nomadConfigOf(flags, env);
  const namespace = nomad.namespace ?? 'default';
  const common = { namespace, count, output, nomad };
  if (flags.bools.get('fleets') === true) {
    const [prefix, ...extra] = flags.args;
    if (extra.length > 0 || prefix === '')
      throw new CommandArgumentError('With -fleets this command takes at most one argument: <run ID prefix>');
    return { ...common, target: { kind: 'fleets' }, ...(prefix === undefined ? {} : { prefix }) };
  }
  const [jobId, prefix, ...extra] = flags.args;
  if (extra.length > 0 || jobId === '' || prefix === '')
    throw new CommandArgumentError('This command takes at most two arguments: [<job> [<run ID prefix>]]');
  if (jobId === undefined) return { ...common, target: { kind: 'all' } };
  return { ...common, target: { kind: 'job', jobId }, ...(prefix === undefined ? {} : { prefix }) };
}
