/**
 * The JSON input of a fleet run, as typed in the Step Functions console, set on a schedule or built
 * by `nomad-restart fleet` from its flags: which jobs (Nomad's own selectors), the budget, and the
 * restart options every job shares. The shared options are the one-job input's fields, checked by
 * the same code with the same messages (`lib/restart/input.ts`).
 */
import * as z from 'zod';
import { goQuote } from '../go/quote';
import { RestartValidationError } from '../restart/errors';
import {
  RESTART_INPUT_ALLOWED,
  type RestartInput,
  restartOptionsShape,
  toRestartInput,
  validateRestartOptionFields,
} from '../restart/input';
import { inputSchemaError } from '../restart/input-errors';
import type { ValidationContext } from '../restart/validate';
import { CONSUMER_ALLOWED, consumerFieldsOf, consumerFieldsShape } from './consumer-input';
import {
  ALL_NAMESPACES,
  DEFAULT_FLEET_ORDER,
  DEFAULT_MAX_FAILED_JOBS,
  DEFAULT_MAX_JOBS,
  type FleetJobOptions,
  type FleetOptions,
  type FleetOrder,
  type FleetSelection,
} from './options';

/** What each fleet field accepts, in words; used in the schema and in error messages. */
const FLEET_ALLOWED = {
  namespace: `a namespace name, or "${ALL_NAMESPACES}" for every namespace the token may list (string)`,
  filter:
    'a Nomad filter expression evaluated on each job, e.g. "Meta.team == \\"payments\\"" (non-empty string)',
  nodes: 'a list of node IDs or ID prefixes (non-empty strings)',
  nodePool: 'a node pool name (non-empty string)',
  datacenters: 'a list of datacenter names (non-empty strings)',
  order: '"id" (namespace, then job ID) or "priority" (highest priority last)',
  maxJobs: `jobs restarting at the same moment, an integer from 1 (default ${DEFAULT_MAX_JOBS})`,
  maxFailedJobs: `failed jobs tolerated before no further job starts, an integer from 0 (default ${DEFAULT_MAX_FAILED_JOBS})`,
} as const;

/** Every field the fleet input takes, in words (the selectors and budget first, then the shared options). */
const ALLOWED: Readonly<Record<string, string>> = (() => {
  const {
    job: _job,
    namespace: _ns,
    groups: _g,
    tasks: _t,
    fleet: _f,
    scope: _s,
    ...shared
  } = RESTART_INPUT_ALLOWED;
  return { ...FLEET_ALLOWED, ...CONSUMER_ALLOWED, ...shared };
})();

const ORDERS: readonly FleetOrder[] = ['id', 'priority'];

/** The selectors, one of which a fleet must have (input field, then the command's flag). */
const SELECTORS = [
  ['namespace', '-namespace'],
  ['filter', '-filter'],
  ['nodes', '-node'],
  ['nodePool', '-node-pool'],
  ['datacenters', '-datacenter'],
  ['usesVariables', '-uses-variable'],
  ['usesSecrets', '-uses-secret'],
] as const;

const count = z.union([z.number(), z.string()]);

/** The raw fleet input. Unknown fields are refused so that typos do not pass silently. */
export const fleetInputSchema = z
  .object({
    namespace: z.string().optional().describe(FLEET_ALLOWED.namespace),
    filter: z.string().optional().describe(FLEET_ALLOWED.filter),
    nodes: z.array(z.string().min(1)).min(1).optional().describe(FLEET_ALLOWED.nodes),
    nodePool: z.string().min(1).optional().describe(FLEET_ALLOWED.nodePool),
    datacenters: z.array(z.string().min(1)).min(1).optional().describe(FLEET_ALLOWED.datacenters),
    order: z.string().optional().describe(FLEET_ALLOWED.order),
    maxJobs: count.optional().describe(FLEET_ALLOWED.maxJobs),
    maxFailedJobs: count.optional().describe(FLEET_ALLOWED.maxFailedJobs),
    ...consumerFieldsShape,
    ...restartOptionsShape,
  })
  .strict()
  .describe(
    'Input of a nomad-restart fleet execution: which jobs, the budget, and the restart options of each',
  );

/** The raw fleet input type, as accepted by {@link fleetInputSchema}. */
export type FleetInput = z.infer<typeof fleetInputSchema>;

/** JSON Schema (draft 2020-12) of the fleet input, for the console, schedules and docs. */
export function fleetInputJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(fleetInputSchema) as Record<string, unknown>;
}

/** `groups` and `tasks` name things inside one job: refused by name rather than as unknown fields. */
function refuseOneJobFields(raw: unknown): void {
  if (raw === null || typeof raw !== 'object') return;
  for (const field of ['groups', 'tasks'] as const) {
    if (field in raw) {
      const value = (raw as Record<string, unknown>)[field];
      throw new RestartValidationError(
        `Invalid input field ${JSON.stringify(field)}: got ${JSON.stringify(value)}, expected nothing: ${field} name things inside one job, and a fleet restarts whole jobs (restart one job's ${field} with nomad-restart -${field === 'groups' ? 'group' : 'task'} <job>)`,
        { field },
      );
    }
  }
}

/** A count field as Nomad-style flag text (`-max-jobs`), checked as a whole number from `min`. */
function parseCountField(
  value: number | string | undefined,
  flag: string,
  field: string,
  min: number,
  fallback: number,
): number {
  if (value === undefined) return fallback;
  const text = String(value).trim();
  if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new RestartValidationError(
      `Invalid -${flag} value ${goQuote(String(value))}: ${flag.replaceAll('-', ' ')} must be an integer ${min === 0 ? 'greater than or equal to zero' : 'greater than zero'}`,
      { field },
    );
  }
  const n = Number(text);
  if (n < min) {
    throw new RestartValidationError(
      `Invalid -${flag} value ${goQuote(String(value))}: number value must be greater than zero`,
      { field },
    );
  }
  return n;
}

function selectionOf(
  input: FleetInput,
  { usesVariables, usesSecrets }: ReturnType<typeof consumerFieldsOf>,
): FleetSelection {
  if (input.filter !== undefined && input.filter.trim() === '') {
    throw new RestartValidationError(
      `Invalid input field "filter": got ${JSON.stringify(input.filter)}, expected ${FLEET_ALLOWED.filter}`,
      { field: 'filter' },
    );
  }
  const selection: FleetSelection = {
    // An empty namespace is Nomad's "none given" (the one-job input reads it the same way).
    ...(input.namespace === undefined || input.namespace === '' ? {} : { namespace: input.namespace }),
    ...(input.filter === undefined ? {} : { filter: input.filter }),
    ...(input.nodes === undefined ? {} : { nodes: [...new Set(input.nodes)] }),
    ...(input.nodePool === undefined ? {} : { nodePool: input.nodePool }),
    ...(input.datacenters === undefined ? {} : { datacenters: [...new Set(input.datacenters)] }),
    ...(usesVariables === undefined ? {} : { usesVariables }),
    ...(usesSecrets === undefined ? {} : { usesSecrets }),
  };
  if (!SELECTORS.some(([field]) => field in selection)) {
    throw new RestartValidationError(
      `A fleet needs at least one selector: give ${SELECTORS.map(([f, flag]) => `"${f}" (${flag})`).join(', ')}; ` +
        `"namespace": "${ALL_NAMESPACES}" with a filter selects across namespaces. A fleet never restarts every job by default`,
      { field: 'namespace' },
    );
  }
  return selection;
}

/**
 * Validates a fleet input and returns `FleetOptions`: the schema first (types, unknown fields,
 * `groups`/`tasks` refused by name), then the shared restart options with the one-job input's
 * checks and messages, then the selection (at least one selector), the order and the budget.
 *
 * @param ctx.interactive whether someone can answer questions (see `validateRestartInput`)
 * @throws RestartValidationError naming the field and quoting the value
 */
export function validateFleetInput(raw: unknown, ctx: ValidationContext): FleetOptions {
  refuseOneJobFields(raw);
  const parsed = fleetInputSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw issue === undefined
      ? new RestartValidationError('Invalid input')
      : inputSchemaError(
          raw,
          issue,
          ALLOWED,
          'a JSON object with the fleet\'s selectors ("namespace", "filter"...)',
        );
  }
  const input = parsed.data;
  const {
    job: _job,
    groups: _groups,
    tasks: _tasks,
    ...jobOptions
  } = validateRestartOptionFields({ ...input, job: '', namespace: undefined }, ctx);
  const consumers = consumerFieldsOf(input);
  const selection = selectionOf(input, consumers);
  const order = input.order ?? DEFAULT_FLEET_ORDER;
  if (!(ORDERS as readonly string[]).includes(order)) {
    throw new RestartValidationError(
      `Invalid -order value ${goQuote(order)}: valid options are ${ORDERS.map(goQuote).join(' and ')}`,
      { field: 'order' },
    );
  }
  return {
    selection,
    order: order as FleetOrder,
    stale: consumers.stale,
    maxJobs: parseCountField(input.maxJobs, 'max-jobs', 'maxJobs', 1, DEFAULT_MAX_JOBS),
    maxFailedJobs: parseCountField(
      input.maxFailedJobs,
      'max-failed-jobs',
      'maxFailedJobs',
      0,
      DEFAULT_MAX_FAILED_JOBS,
    ),
    jobOptions: jobOptions satisfies FleetJobOptions,
  };
}

/**
 * The one-job input fields every job of the fleet shares (what "Plan fleet" puts in
 * `FleetState.jobOptions`, before a scope): `toRestartInput` of the shared options, without a job.
 */
export function sharedJobInput(
  jobOptions: FleetJobOptions,
  startedBy?: string,
): Omit<RestartInput, 'job' | 'namespace' | 'groups' | 'tasks' | 'fleet' | 'scope'> {
  // FleetJobOptions has no fleet or scope: toRestartInput writes neither.
  const {
    job: _job,
    groups: _groups,
    tasks: _tasks,
    fleet: _fleet,
    scope: _scope,
    ...shared
  } = toRestartInput({ ...jobOptions, job: '', groups: [], tasks: [] }, startedBy);
  return shared;
}

/**
 * The fleet input that validates back to `options`: what the command sends to the fleet state
 * machine after validating its flags. Only options travel; the Nomad token never does.
 * @param startedBy who starts the run, for people
 */
export function toFleetInput(options: FleetOptions, startedBy?: string): FleetInput {
  const { selection } = options;
  return {
    ...(selection.namespace === undefined ? {} : { namespace: selection.namespace }),
    ...(selection.filter === undefined ? {} : { filter: selection.filter }),
    ...(selection.nodes === undefined ? {} : { nodes: [...selection.nodes] }),
    ...(selection.nodePool === undefined ? {} : { nodePool: selection.nodePool }),
    ...(selection.datacenters === undefined ? {} : { datacenters: [...selection.datacenters] }),
    ...(selection.usesVariables === undefined ? {} : { usesVariables: [...selection.usesVariables] }),
    ...(selection.usesSecrets === undefined ? {} : { usesSecrets: [...selection.usesSecrets] }),
    ...(options.stale ? { stale: true } : {}),
    order: options.order,
    maxJobs: options.maxJobs,
    maxFailedJobs: options.maxFailedJobs,
    ...sharedJobInput(options.jobOptions, startedBy),
  };
}
