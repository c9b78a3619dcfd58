/**
 * The command line of `nomad-restart fleet [options]`: the selection (`-namespace`, `-filter`,
 * `-node`, `-node-pool`, `-datacenter`, `-uses-variable`, `-uses-secret` with `-stale`), the budget (`-max-jobs`, `-max-failed-jobs`), the order,
 * and every option of the one-job command but `-task` and `-group` (they name things inside one
 * job). The flags are read as the one-job command reads them (`restart-flags.ts`) and checked by
 * the fleet input's own validation (`lib/fleet/input.ts`), so the command, the console and
 * schedules accept and refuse the same values with the same messages.
 */

import { validateFleetInput } from '../../fleet/input';
import type { FleetOptions } from '../../fleet/options';
import type { GoFlagResult, GoFlagSpecs } from '../../go/flag';
import { goQuote } from '../../go/quote';
import type { NomadClientConfig } from '../../nomad/config';
import { RestartValidationError } from '../../restart/errors';
import { type OutputMode, parseFlags } from './command-flags';
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

/** A parsed and validated `fleet` command line. */
export interface FleetCommandLine {
  /** The selection, budget, order and the restart options every job shares. */
  readonly fleet: FleetOptions;
  readonly general: GeneralOptions;
  readonly engine: EngineChoice;
  readonly output: OutputMode;
}

/** The fleet's own flags, beside the one-job command's. */
const FLEET_FLAGS: GoFlagSpecs = {
  ...RESTART_COMMAND_FLAGS,
  filter: 'string',
  node: 'list',
  'node-pool': 'string',
  datacenter: 'list',
  'max-jobs': 'string',
  'max-failed-jobs': 'string',
  order: 'string',
  'uses-variable': 'list',
  'uses-secret': 'list',
  stale: 'bool',
};

/** The selector flags, with what an empty value of each should have been. */
const SELECTOR_FLAGS = [
  ['filter', 'a filter expression, such as \'Meta.team == "payments"\''],
  ['node', 'a node ID or ID prefix'],
  ['node-pool', 'a node pool name'],
  ['datacenter', 'a datacenter name'],
  ['uses-variable', 'a Nomad variable path, such as "nomad/jobs/shared/db", or a prefix ending in "*"'],
  ['uses-secret', 'a Vault secret path, such as "kv/payments/db", or a prefix ending in "*"'],
] as const;

const valuesOf = (flags: GoFlagResult, flag: string): string[] => {
  const one = flags.strings.get(flag);
  return one === undefined ? (flags.lists.get(flag) ?? []) : [one];
};

/**
 * Refuses what only a command line can get wrong, in the command's words: an argument,
 * `-task`/`-group`, no selection at all, an empty selector.
 */
function refuseCommandLine(flags: GoFlagResult, nomad: NomadClientConfig): void {
  if (flags.args.length > 0) {
    throw new CommandArgumentError(
      `This command takes no arguments (got ${goQuote(flags.args[0] ?? '')}): jobs are selected with -namespace, -filter, -node, -node-pool or -datacenter`,
    );
  }
  for (const inside of ['task', 'group']) {
    if (flags.lists.has(inside)) {
      throw new CommandArgumentError(
        `The -${inside} option cannot be used with fleet: it names a ${inside} inside one job; restart that job with 'nomad-restart -${inside} <name> <job>'`,
      );
    }
  }
  // Only a namespace given as a flag or NOMAD_NAMESPACE selects: Nomad's implicit `default` would
  // turn a bare `fleet` into "restart every job of the default namespace".
  const selects =
    nomad.namespace !== undefined || SELECTOR_FLAGS.some(([flag]) => valuesOf(flags, flag).length > 0);
  if (!selects) {
    throw new CommandArgumentError(
      'A fleet restart needs a selection: give at least one of -filter, -node, -node-pool, -datacenter, -uses-variable, -uses-secret or -namespace (or NOMAD_NAMESPACE); it never restarts every job by default',
    );
  }
  for (const [flag, what] of SELECTOR_FLAGS) {
    if (valuesOf(flags, flag).includes(''))
      throw new CommandArgumentError(`Invalid -${flag} value "": expected ${what}`);
  }
}

/** The fleet input the flags stand for (strings as typed; the fleet input's validation reads them). */
function rawFleetInput(flags: GoFlagResult, nomad: NomadClientConfig): Record<string, unknown> {
  const {
    job: _job,
    groups: _groups,
    tasks: _tasks,
    namespace,
    ...shared
  } = rawRestartFieldsOf(flags, '', nomad);
  const raw: Record<string, unknown> = {
    ...shared,
    namespace,
    filter: flags.strings.get('filter'),
    nodes: flags.lists.get('node'),
    nodePool: flags.strings.get('node-pool'),
    datacenters: flags.lists.get('datacenter'),
    order: flags.strings.get('order'),
    maxJobs: flags.strings.get('max-jobs'),
    maxFailedJobs: flags.strings.get('max-failed-jobs'),
    usesVariables: flags.lists.get('uses-variable'),
    usesSecrets: flags.lists.get('uses-secret'),
    stale: flags.bools.get('stale'),
  };
  return Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined));
}

/**
 * Parses and validates `nomad-restart fleet [options]` arguments (after the word `fleet`).
 *
 * @param ctx.interactive stdin and stdout are both terminals (`ask`, the default `-on-error`, needs
 *   it, or `-yes`).
 * @throws HelpRequestedError for `-h`/`-help`; GoFlagError for flag syntax; CommandArgumentError
 *   for an argument, `-task`/`-group`, no selection, or a bad value (the flag and the value named).
 */
export function parseFleetArgs(
  args: readonly string[],
  ctx: { interactive: boolean; env: Env },
): FleetCommandLine {
  if (wantsHelp(args)) throw new HelpRequestedError();
  const flags = parseFlags(args, FLEET_FLAGS);
  const nomad = nomadConfigOf(flags, ctx.env);
  refuseCommandLine(flags, nomad);
  let fleet: FleetOptions;
  try {
    fleet = validateFleetInput(rawFleetInput(flags, nomad), { interactive: ctx.interactive });
  } catch (err) {
    if (err instanceof RestartValidationError) throw new CommandArgumentError(err.message, { cause: err });
    throw err;
  }
  const engine = engineOf(flags, fleet.jobOptions.dryRun);
  const { general, output } = generalOptionsOf(
    flags,
    ctx.env,
    nomad,
    fleet.jobOptions.waitHealthy !== undefined,
  );
  return { fleet, general, engine, output };
}
