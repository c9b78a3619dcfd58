/**
 * The JSON input of a restart, as typed in the Step Functions console or set on a
 * schedule: camelCase fields named after the `nomad job restart` flags. One zod schema
 * gives the TypeScript type, the runtime check and the JSON Schema.
 */
import * as z from 'zod';
import { formatGoDuration } from '../go/duration';
import { BAKE_TIME_ALLOWED, formatBakeTime, STOP_ON_ALARM_ALLOWED } from './alarms';
import { RestartValidationError } from './errors';
import { inputSchemaError } from './input-errors';
import {
  copyScope,
  fleetRefSchema,
  JOB_SCOPE_FIELDS_ALLOWED,
  jobScopeSchema,
  validateJobScopeFields,
} from './job-scope';
import {
  ASK,
  DEFAULT_BATCH_SIZE,
  DEFAULT_BATCH_WAIT,
  DEFAULT_HEALTHY_DEADLINE,
  DEFAULT_MIN_HEALTHY_TIME,
  DEFAULT_ON_ERROR,
  formatCount,
  type RestartOptions,
} from './options';
import { REASON_ALLOWED } from './run/reason';
import { formatStartedBefore, STARTED_BEFORE_ALLOWED } from './started-before';
import { type ValidationContext, validateRestartFields } from './validate';
import {
  parseRfc3339,
  SCHEDULE_TRIGGER,
  validateWindowFields,
  WINDOW_FIELDS_ALLOWED,
  windowInputFields,
} from './window';

/** The longest `startedBy` the input takes. */
export const MAX_STARTED_BY_LENGTH = 200;

/** What each field accepts, in words; used in the schema and in error messages. */
export const RESTART_INPUT_ALLOWED = {
  job: 'a job ID or ID prefix (non-empty string)',
  namespace: 'a namespace name (string)',
  region: 'a region name (string)',
  batchSize: 'n or n% (string or integer), e.g. "2" or "25%"',
  batchWait: 'a Go duration such as "10s" or "1m30s", or "ask" (string)',
  onError: '"ask" or "fail"',
  yes: 'true or false',
  groups: 'a list of task group names (strings)',
  tasks: 'a list of task names (strings)',
  allTasks: 'true or false',
  reschedule: 'true or false',
  noShutdownDelay: 'true or false',
  verbose: 'true or false',
  replacementTimeout: 'a Go duration greater than zero, e.g. "10m" (string)',
  maxErrors: 'n or n% (string or integer), e.g. "0" or "10%"',
  dryRun: 'true or false',
  waitHealthy: 'true or false',
  minHealthyTime: 'a Go duration, e.g. "10s" (string); only with waitHealthy',
  healthyDeadline: 'a Go duration greater than zero, e.g. "5m" (string); only with waitHealthy',
  startedBefore: STARTED_BEFORE_ALLOWED,
  stopOnAlarms: `a list of ${STOP_ON_ALARM_ALLOWED}`,
  bakeTime: BAKE_TIME_ALLOWED,
  reason: REASON_ALLOWED,
  startedBy: `who or what started the run, shown with its questions in chat (string, at most ${MAX_STARTED_BY_LENGTH} characters)`,
  ...WINDOW_FIELDS_ALLOWED,
  ...JOB_SCOPE_FIELDS_ALLOWED,
} as const;

const ALLOWED = RESTART_INPUT_ALLOWED;

type Field = keyof typeof ALLOWED;

const flag = (field: Field) => z.boolean().optional().describe(ALLOWED[field]);

/**
 * The restart options every job of a fleet shares with a one-job run: every field but the job, its
 * namespace, groups, tasks and what a fleet sets per job. The fleet's input reuses this shape, so
 * both inputs accept and describe these fields alike.
 */
export const restartOptionsShape = {
  region: z.string().optional().describe(ALLOWED.region),
  batchSize: z
    .union([z.string(), z.number()])
    .optional()
    .describe(`${ALLOWED.batchSize}. Default ${DEFAULT_BATCH_SIZE}`),
  batchWait: z.string().optional().describe(`${ALLOWED.batchWait}. Default ${DEFAULT_BATCH_WAIT}`),
  onError: z.string().optional().describe(`${ALLOWED.onError}. Default ${DEFAULT_ON_ERROR}`),
  yes: flag('yes'),
  allTasks: flag('allTasks'),
  reschedule: flag('reschedule'),
  noShutdownDelay: flag('noShutdownDelay'),
  verbose: flag('verbose'),
  replacementTimeout: z.string().optional().describe(ALLOWED.replacementTimeout),
  maxErrors: z.union([z.string(), z.number()]).optional().describe(ALLOWED.maxErrors),
  dryRun: flag('dryRun'),
  waitHealthy: z
    .boolean()
    .optional()
    .describe(`${ALLOWED.waitHealthy}: wait until each batch is healthy again before the next`),
  minHealthyTime: z
    .string()
    .optional()
    .describe(`${ALLOWED.minHealthyTime}. Default ${DEFAULT_MIN_HEALTHY_TIME}`),
  healthyDeadline: z
    .string()
    .optional()
    .describe(`${ALLOWED.healthyDeadline}. Default ${DEFAULT_HEALTHY_DEADLINE}`),
  startedBefore: z
    .string()
    .optional()
    .describe(
      `${ALLOWED.startedBefore}: only allocations with a task in scope that last started before it are restarted`,
    ),
  stopOnAlarms: z
    .array(z.string())
    .optional()
    .describe(`${ALLOWED.stopOnAlarms}: one in ALARM before a batch or during a health wait stops the run`),
  bakeTime: z
    .string()
    .optional()
    .describe(`${ALLOWED.bakeTime}: after the last batch, the alarms (and health) are watched this long`),
  reason: z.string().optional().describe(ALLOWED.reason),
  // Not a flag of nomad job restart: a label for people (chat approvals), never checked.
  startedBy: z.string().max(MAX_STARTED_BY_LENGTH).optional().describe(ALLOWED.startedBy),
  windowEnd: z.string().optional().describe(ALLOWED.windowEnd),
  windowDuration: z.string().optional().describe(ALLOWED.windowDuration),
  trigger: z.literal(SCHEDULE_TRIGGER).optional().describe(ALLOWED.trigger),
  scheduleName: z.string().optional().describe(ALLOWED.scheduleName),
  scheduledTime: z.string().optional().describe(ALLOWED.scheduledTime),
  resumeNextWindow: z.boolean().optional().describe(ALLOWED.resumeNextWindow),
};

/** The shape's fields `keys`, first (the input lists the flags in Nomad's help order). */
function restartOptionsBefore<K extends keyof typeof restartOptionsShape>(
  keys: readonly K[],
): Pick<typeof restartOptionsShape, K> {
  return Object.fromEntries(keys.map((key) => [key, restartOptionsShape[key]])) as Pick<
    typeof restartOptionsShape,
    K
  >;
}

/** The raw workflow / console input. Unknown fields are refused so that typos do not pass silently. */
export const restartInputSchema = z
  .object({
    job: z.string().describe(ALLOWED.job),
    namespace: z.string().optional().describe(ALLOWED.namespace),
    ...restartOptionsBefore(['region', 'batchSize', 'batchWait', 'onError', 'yes']),
    // Names inside one job: a fleet's input has neither.
    groups: z.array(z.string()).optional().describe(ALLOWED.groups),
    tasks: z.array(z.string()).optional().describe(ALLOWED.tasks),
    ...restartOptionsShape,
    fleet: fleetRefSchema.optional(),
    scope: jobScopeSchema.optional(),
  })
  .strict()
  .describe('Input of a nomad-restart execution: the options of `nomad job restart`');

/** The raw input type, as accepted by {@link restartInputSchema}. */
export type RestartInput = z.infer<typeof restartInputSchema>;

/** JSON Schema (draft 2020-12) of the input, for the console, schedules and docs. */
export function restartInputJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(restartInputSchema) as Record<string, unknown>;
}

const countText = (value: string | number | undefined, fallback?: string) =>
  value === undefined ? fallback : String(value);

/**
 * Validates workflow input and returns `RestartOptions`: the schema first (types, unknown
 * fields), then an empty job, then Nomad's checks 3-9 of `command/job_restart.go`
 * `parseAndValidate` in order with Nomad's exact messages, then `replacementTimeout`, `maxErrors`
 * and the health gate, then the window and trigger fields.
 *
 * @param ctx.interactive whether someone can answer questions (a terminal, or an approval
 *   channel in the workflow); without it `ask` needs `yes`.
 * @throws RestartValidationError
 */
export function validateRestartInput(raw: unknown, ctx: ValidationContext): RestartOptions {
  const parsed = restartInputSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw issue === undefined
      ? new RestartValidationError('Invalid input')
      : inputSchemaError(raw, issue, ALLOWED, 'a JSON object with a "job" field');
  }
  const input = parsed.data;
  if (input.job.trim() === '') {
    throw new RestartValidationError(
      `Invalid input field "job": got ${JSON.stringify(input.job)}, expected ${ALLOWED.job}`,
      { field: 'job' },
    );
  }
  // A fleet's job: its startedBefore was set by the fleet's plan (see ValidationContext).
  const jobCtx = input.fleet === undefined ? ctx : { ...ctx, startedBeforeFromPlan: true };
  return { ...validateRestartOptionFields(input, jobCtx), ...validateJobScopeFields(input) };
}

/** The shared options' values as the schema parsed them (absent fields `undefined`). */
export type RestartOptionsFields = z.infer<z.ZodObject<typeof restartOptionsShape>>;

/**
 * The checks every restart's options pass, one job's or a fleet's: Nomad's checks 3-9 of
 * `command/job_restart.go` `parseAndValidate` with its messages, ours after them, then the window
 * and trigger fields. Defaults fill what is absent.
 * @throws RestartValidationError
 */
export function validateRestartOptionFields(
  input: RestartOptionsFields & {
    readonly job: string;
    readonly namespace?: string | undefined;
    readonly groups?: readonly string[] | undefined;
    readonly tasks?: readonly string[] | undefined;
  },
  ctx: ValidationContext,
): RestartOptions {
  const options = validateRestartFields(
    {
      job: input.job,
      namespace: input.namespace,
      region: input.region,
      batchSize: countText(input.batchSize, DEFAULT_BATCH_SIZE) ?? DEFAULT_BATCH_SIZE,
      batchWait: input.batchWait ?? DEFAULT_BATCH_WAIT,
      onError: input.onError ?? DEFAULT_ON_ERROR,
      yes: input.yes ?? false,
      groups: input.groups ?? [],
      tasks: input.tasks ?? [],
      allTasks: input.allTasks ?? false,
      reschedule: input.reschedule ?? false,
      noShutdownDelay: input.noShutdownDelay ?? false,
      verbose: input.verbose ?? false,
      replacementTimeout: input.replacementTimeout,
      maxErrors: countText(input.maxErrors),
      dryRun: input.dryRun ?? false,
      waitHealthy: input.waitHealthy,
      minHealthyTime: input.minHealthyTime,
      healthyDeadline: input.healthyDeadline,
      startedBefore: input.startedBefore,
      stopOnAlarms: input.stopOnAlarms,
      bakeTime: input.bakeTime,
      reason: input.reason,
    },
    // A relative startedBefore counts back from when the schedule fired, as windowDuration does
    // (a flexible window may start the run later; what "2h before" means does not move).
    { ...ctx, ...countFromSchedule(input.scheduledTime) },
  );
  return { ...options, ...validateWindowFields(input) };
}

/** `countFrom` = the schedule's `scheduledTime` when it is a valid time (the window check refuses it otherwise). */
function countFromSchedule(scheduledTime: string | undefined): Pick<ValidationContext, 'countFrom'> {
  const countFrom = scheduledTime === undefined ? undefined : parseRfc3339(scheduledTime);
  return countFrom === undefined ? {} : { countFrom };
}

/**
 * The execution input that validates back to `options`: what the CLI sends to the state
 * machine (locally or on AWS) after validating the flags itself. Only options travel; the
 * Nomad address, token and TLS material never do.
 * @param startedBy who starts the run, for people (cut to {@link MAX_STARTED_BY_LENGTH})
 */
export function toRestartInput(options: RestartOptions, startedBy?: string): RestartInput {
  const input: RestartInput = {
    job: options.job,
    batchSize: formatCount(options.batchSize),
    batchWait: options.batchWait.kind === 'ask' ? ASK : formatGoDuration(options.batchWait.ns),
    onError: options.onError,
    yes: options.yes,
    groups: options.groups,
    tasks: options.tasks,
    allTasks: options.allTasks,
    reschedule: options.reschedule,
    noShutdownDelay: options.noShutdownDelay,
    verbose: options.verbose,
    dryRun: options.dryRun,
  };
  if (options.namespace !== undefined) input.namespace = options.namespace;
  if (options.region !== undefined) input.region = options.region;
  if (options.replacementTimeoutNs !== undefined) {
    input.replacementTimeout = formatGoDuration(options.replacementTimeoutNs);
  }
  if (options.maxErrors !== undefined) input.maxErrors = formatCount(options.maxErrors);
  if (options.waitHealthy !== undefined) {
    input.waitHealthy = true;
    input.minHealthyTime = formatGoDuration(options.waitHealthy.minHealthyTimeNs);
    input.healthyDeadline = formatGoDuration(options.waitHealthy.healthyDeadlineNs);
  }
  if (options.startedBefore !== undefined) input.startedBefore = formatStartedBefore(options.startedBefore);
  if (options.stopOnAlarms !== undefined) input.stopOnAlarms = [...options.stopOnAlarms];
  if (options.bakeTimeMs !== undefined) input.bakeTime = formatBakeTime(options.bakeTimeMs);
  if (options.reason !== undefined) input.reason = options.reason;
  if (startedBy !== undefined) input.startedBy = startedBy.slice(0, MAX_STARTED_BY_LENGTH);
  if (options.fleet !== undefined) input.fleet = { ...options.fleet };
  if (options.scope !== undefined) input.scope = copyScope(options.scope);
  return { ...input, ...windowInputFields(options) };
}
