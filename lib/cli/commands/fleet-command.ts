/**
 * The command line of `nomad-restart fleet [options]`: the selection (`-namespace`, `-filter`,
 * `-node`, `-node-pool`, `-datacenter`), the budget (`-max-jobs`, `-max-failed-jobs`), the order,
 * and every option of the one-job command but `-task` and `-group` (they name things inside one
 * job), read and validated exactly as the one-job command reads them (`restart-flags.ts`).
 */

import type { GoFlagResult, GoFlagSpecs } from '../../go/flag';
import { goQuote } from '../../go/quote';
import { RestartValidationError } from '../../restart/errors';
import type { RestartOptions } from '../../restart/options';
import { validateRestartFields } from '../../restart/validate';
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

/** `-order`: namespace then job ID, or by Nomad priority with the highest last. */
export const FLEET_ORDERS = ['id', 'priority'] as const;

/** One of {@link FLEET_ORDERS}. */
export type FleetOrder = (typeof FLEET_ORDERS)[number];

/** Which jobs, and which of their allocations, the fleet restarts. */
export interface FleetSelection {
  /**
   * `-namespace` or `NOMAD_NAMESPACE` (`*`: every namespace the token may list). Absent: Nomad's
   * `default` namespace, which alone does not count as a selection.
   */
  readonly namespace?: string;
  /** `-filter`: Nomad's filter expression, evaluated by Nomad on each job. */
  readonly filter?: string;
  /** `-node`: node IDs or ID prefixes, resolved by the fleet's plan. */
  readonly nodes: readonly string[];
  /** `-node-pool`. */
  readonly nodePool?: string;
  /** `-datacenter`. */
  readonly datacenters: readonly string[];
}

/** The restart options every job of the fleet shares: the one-job options but the job's own. */
export type FleetJobOptions = Omit<RestartOptions, 'job' | 'groups' | 'tasks' | 'namespace'>;

/** A parsed and validated `fleet` command line. */
export interface FleetCommandLine {
  readonly options: FleetJobOptions;
  readonly selection: FleetSelection;
  /** `-max-jobs` (default 1) and `-max-failed-jobs` (default 0). */
  readonly budget: { readonly maxJobs: number; readonly maxFailedJobs: number };
  readonly order: FleetOrder;
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
};

/**
 * Step Functions runs at most 10,000 child executions of a Distributed Map at once
 * (https://docs.aws.amazon.com/step-functions/latest/dg/concepts-asl-use-map-state-distributed.html),
 * and `-max-jobs` is its `MaxConcurrency`.
 */
export const MAX_JOBS_LIMIT = 10_000;

const DIGITS_RE = /^[0-9]+$/;

/** A whole number from a flag, as Go's `strconv.Atoi` reads one (no sign, decimals or spaces). */
function parseWhole(flags: GoFlagResult, flag: string, noun: string, fallback: number): number {
  const text = flags.strings.get(flag);
  if (text === undefined) return fallback;
  if (!DIGITS_RE.test(text))
    throw new CommandArgumentError(
      `Invalid -${flag} value ${goQuote(text)}: ${noun} must be a whole number of 0 or more`,
    );
  return Number(text);
}

/** `-max-jobs`: 1 to {@link MAX_JOBS_LIMIT}. */
function parseMaxJobs(flags: GoFlagResult): number {
  const maxJobs = parseWhole(flags, 'max-jobs', 'max jobs', 1);
  const text = flags.strings.get('max-jobs') ?? '';
  if (maxJobs === 0)
    throw new CommandArgumentError(
      `Invalid -max-jobs value ${goQuote(text)}: number value must be greater than zero`,
    );
  if (maxJobs > MAX_JOBS_LIMIT) {
    throw new CommandArgumentError(
      `Invalid -max-jobs value ${goQuote(text)}: at most ${MAX_JOBS_LIMIT} jobs can restart at once (Step Functions' limit on a Distributed Map's child executions)`,
    );
  }
  return maxJobs;
}

/** `-max-failed-jobs`: 0 or more (a count of jobs, never a percentage). */
const parseMaxFailedJobs = (flags: GoFlagResult): number =>
  parseWhole(flags, 'max-failed-jobs', 'max failed jobs', 0);

function parseOrder(flags: GoFlagResult): FleetOrder {
  const order = flags.strings.get('order') ?? 'id';
  if ((FLEET_ORDERS as readonly string[]).includes(order)) return order as FleetOrder;
  throw new CommandArgumentError(
    `Invalid -order value ${goQuote(order)}: valid options are "id" and "priority"`,
  );
}

/** A given selector flag must say something: an empty one would silently select more. */
function nonEmpty(flag: string, values: readonly string[], what: string): void {
  if (values.includes('')) throw new CommandArgumentError(`Invalid -${flag} value "": expected ${what}`);
}

function parseSelection(flags: GoFlagResult, namespace: string | undefined): FleetSelection {
  const filter = flags.strings.get('filter');
  const nodePool = flags.strings.get('node-pool');
  const nodes = flags.lists.get('node') ?? [];
  const datacenters = flags.lists.get('datacenter') ?? [];
  nonEmpty(
    'filter',
    filter === undefined ? [] : [filter],
    'a filter expression, such as \'Meta.team == "payments"\'',
  );
  nonEmpty('node', nodes, 'a node ID or ID prefix');
  nonEmpty('node-pool', nodePool === undefined ? [] : [nodePool], 'a node pool name');
  nonEmpty('datacenter', datacenters, 'a datacenter name');
  const selection: FleetSelection = {
    nodes: [...new Set(nodes)],
    datacenters: [...new Set(datacenters)],
    ...(namespace === undefined ? {} : { namespace }),
    ...(filter === undefined ? {} : { filter }),
    ...(nodePool === undefined ? {} : { nodePool }),
  };
  const selects =
    selection.namespace !== undefined ||
    selection.filter !== undefined ||
    selection.nodePool !== undefined ||
    selection.nodes.length > 0 ||
    selection.datacenters.length > 0;
  if (!selects) {
    throw new CommandArgumentError(
      'A fleet restart needs a selection: give at least one of -filter, -node, -node-pool, -datacenter or -namespace (or NOMAD_NAMESPACE); it never restarts every job by default',
    );
  }
  return selection;
}

/**
 * Parses and validates `nomad-restart fleet [options]` arguments (after the word `fleet`).
 *
 * The namespace counts as a selection only when given (`-namespace` or a non-empty
 * `NOMAD_NAMESPACE`): Nomad's implicit `default` namespace would otherwise turn a bare `fleet` into
 * "restart every job of the default namespace".
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
  const nomad = nomadConfigOf(flags, ctx.env);
  // What to restart comes first: a bare `fleet` is told it selects nothing, whatever else is wrong.
  const selection = parseSelection(flags, nomad.namespace);
  let options: RestartOptions;
  try {
    options = validateRestartFields(rawRestartFieldsOf(flags, '', nomad), { interactive: ctx.interactive });
  } catch (err) {
    if (err instanceof RestartValidationError) throw new CommandArgumentError(err.message, { cause: err });
    throw err;
  }
  const { job: _job, groups: _groups, tasks: _tasks, namespace: _namespace, ...jobOptions } = options;
  const budget = { maxJobs: parseMaxJobs(flags), maxFailedJobs: parseMaxFailedJobs(flags) };
  const order = parseOrder(flags);
  const engine = engineOf(flags, options.dryRun);
  const { general, output } = generalOptionsOf(flags, ctx.env, nomad, options.waitHealthy !== undefined);
  return { options: jobOptions, selection, budget, order, general, engine, output };
}
