/**
 * The value checks of `nomad job restart` (Nomad's `command/job_restart.go` `parseAndValidate`,
 * checks 3 to 9) in Nomad's order with Nomad's messages, plus our own options after them. Shared by
 * the CLI (values are flag strings) and by the workflow input (`input.ts`).
 */
import { formatGoDuration, parseGoDuration } from '../go/duration';
import { goQuote } from '../go/quote';
import { validateAlarmFields } from './alarms';
import { errorText, RestartValidationError } from './errors';
import {
  ASK,
  DEFAULT_HEALTHY_DEADLINE,
  DEFAULT_MIN_HEALTHY_TIME,
  FAIL,
  type HealthGate,
  type OnError,
  type RestartOptions,
} from './options';
import { validateReason } from './run/reason';
import { resolveStartedBefore } from './started-before';

/** Option values as typed, before validation. */
export interface RawRestartFields {
  job: string;
  namespace?: string | undefined;
  region?: string | undefined;
  batchSize: string;
  batchWait: string;
  onError: string;
  yes: boolean;
  groups: readonly string[];
  tasks: readonly string[];
  allTasks: boolean;
  reschedule: boolean;
  noShutdownDelay: boolean;
  verbose: boolean;
  replacementTimeout?: string | undefined;
  maxErrors?: string | undefined;
  dryRun: boolean;
  waitHealthy?: boolean | undefined;
  minHealthyTime?: string | undefined;
  healthyDeadline?: string | undefined;
  /** RFC 3339 with a zone, or a Go duration counted back from `ValidationContext.now`. */
  startedBefore?: string | undefined;
  /** `-stop-on-alarm`, repeated: CloudWatch alarm names or ARNs (lib/restart/alarms.ts). */
  stopOnAlarms?: readonly string[] | undefined;
  /** `-bake-time`: a Go duration. */
  bakeTime?: string | undefined;
  /** `-reason`: why the run was started, for its record in the job's history. */
  reason?: string | undefined;
}

/** Whether questions can be asked: at a terminal, both stdin and stdout are TTYs. */
export interface ValidationContext {
  interactive: boolean;
  /**
   * The run's start (Unix ms), which a relative `-started-before 2h` counts back from and which an
   * absolute one may not be after. Resolved once, where the input is validated: a resumed run then
   * keeps the same time.
   * @default - the clock at validation
   */
  now?: number;
  /**
   * What a relative `-started-before` counts back from, when not `now`: a schedule's
   * `scheduledTime`. @default - `now`
   */
  countFrom?: number;
  /**
   * `startedBefore` was set by a fleet's plan, not typed by a person: with `-stale` it is a
   * variable's `ModifyTime`, on Nomad's clock, which may run ahead of this run's, so it is never
   * refused for being after {@link ValidationContext.now}. @default false
   */
  startedBeforeFromPlan?: boolean;
}

/** Nomad's `^(\d+)%?$` (ASCII digits only). */
const COUNT_RE = /^([0-9]+)%?$/;
const INT64_MAX = (1n << 63n) - 1n;

function invalid(flag: string, value: string, reason: string, field: string): RestartValidationError {
  return new RestartValidationError(`Invalid -${flag} value ${goQuote(value)}: ${reason}`, { field });
}

/** Parses `n` / `n%` like Nomad's `-batch-size` (regex, then `strconv.Atoi`). */
function parseCount(
  flag: string,
  field: string,
  text: string,
  noun: string,
): { value: number; percent: boolean } {
  const match = COUNT_RE.exec(text);
  const digits = match?.[1];
  if (digits === undefined) throw invalid(flag, text, `${noun} must be an integer or a percentage`, field);
  if (BigInt(digits) > INT64_MAX) {
    throw invalid(flag, text, `strconv.Atoi: parsing ${goQuote(digits)}: value out of range`, field);
  }
  return { value: Number(digits), percent: text.endsWith('%') };
}

const notInteractive = (flag: string) =>
  `Invalid -${flag} value ${goQuote(ASK)}: ${goQuote(ASK)} cannot be used when terminal is not interactive`;

/**
 * Whether an `ask` can be answered: at a terminal, or never needed (`-yes`; a dry run, which asks
 * nothing, beyond Nomad, which has no dry run).
 */
const canAsk = (raw: RawRestartFields, ctx: ValidationContext): boolean =>
  ctx.interactive || raw.yes || raw.dryRun;

function dedupe(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/**
 * Validates raw option values, first failure wins, and returns `RestartOptions`.
 *
 * @throws RestartValidationError with Nomad's exact message (no additional-help line).
 */
export function validateRestartFields(raw: RawRestartFields, ctx: ValidationContext): RestartOptions {
  // 3-5. -batch-size: syntax, int64 range, zero.
  const batchSize = parseCount('batch-size', 'batchSize', raw.batchSize, 'batch size');
  if (batchSize.value === 0) {
    throw invalid('batch-size', raw.batchSize, 'number value must be greater than zero', 'batchSize');
  }

  // 6. -batch-wait: `ask` in any case, or a Go duration.
  let batchWait: RestartOptions['batchWait'];
  if (raw.batchWait.toLowerCase() === ASK) {
    if (!canAsk(raw, ctx)) {
      throw new RestartValidationError(notInteractive('batch-wait'), { field: 'batchWait' });
    }
    batchWait = { kind: 'ask' };
  } else {
    batchWait = { kind: 'duration', ns: parseDuration('batch-wait', 'batchWait', raw.batchWait) };
  }

  // 7. -on-error: exact match only.
  if (raw.onError === ASK) {
    if (!canAsk(raw, ctx)) {
      throw new RestartValidationError(notInteractive('on-error'), { field: 'onError' });
    }
  } else if (raw.onError !== FAIL) {
    throw invalid(
      'on-error',
      raw.onError,
      `valid options are ${goQuote(ASK)} and ${goQuote(FAIL)}`,
      'onError',
    );
  }

  // 8-9. Conflicts with -task.
  if (raw.allTasks && raw.tasks.length > 0) {
    throw new RestartValidationError('The -all-tasks option cannot be used with -task', {
      field: 'allTasks',
    });
  }
  if (raw.reschedule && raw.tasks.length > 0) {
    throw new RestartValidationError('The -reschedule option cannot be used with -task', {
      field: 'reschedule',
    });
  }

  const options: RestartOptions = {
    job: raw.job.trim(),
    batchSize,
    batchWait,
    onError: raw.onError as OnError,
    yes: raw.yes,
    groups: dedupe(raw.groups),
    tasks: dedupe(raw.tasks),
    allTasks: raw.allTasks,
    reschedule: raw.reschedule,
    noShutdownDelay: raw.noShutdownDelay,
    verbose: raw.verbose,
    dryRun: raw.dryRun,
  };
  if (raw.namespace !== undefined && raw.namespace !== '') options.namespace = raw.namespace;
  if (raw.region !== undefined && raw.region !== '') options.region = raw.region;

  // Beyond Nomad, checked after all of Nomad's checks so its order is unchanged.
  if (raw.replacementTimeout !== undefined) {
    const ns = parseDuration('replacement-timeout', 'replacementTimeout', raw.replacementTimeout);
    if (ns <= 0) {
      throw invalid(
        'replacement-timeout',
        raw.replacementTimeout,
        'duration must be greater than zero',
        'replacementTimeout',
      );
    }
    options.replacementTimeoutNs = ns;
  }
  if (raw.maxErrors !== undefined) {
    options.maxErrors = parseCount('max-errors', 'maxErrors', raw.maxErrors, 'max errors');
  }
  const gate = parseHealthGate(raw);
  if (gate !== undefined) options.waitHealthy = gate;
  if (raw.startedBefore !== undefined) {
    const now = ctx.now ?? Date.now();
    const { countFrom = now, startedBeforeFromPlan = false } = ctx;
    options.startedBefore = resolveStartedBefore(raw.startedBefore, now, countFrom, startedBeforeFromPlan);
  }
  if (raw.reason !== undefined) options.reason = validateReason(raw.reason);
  return { ...options, ...validateAlarmFields({ ...raw, waitHealthy: gate !== undefined }) };
}

/**
 * `-wait-healthy` with `-min-healthy-time` and `-healthy-deadline`: each duration checked as Go
 * parses it, then the rules of Nomad's `update` block (no negative minimum, a deadline above
 * zero and above the minimum). The timings mean nothing without the gate, so they are refused
 * alone rather than silently ignored.
 */
function parseHealthGate(raw: RawRestartFields): HealthGate | undefined {
  const minText = raw.minHealthyTime ?? DEFAULT_MIN_HEALTHY_TIME;
  const deadlineText = raw.healthyDeadline ?? DEFAULT_HEALTHY_DEADLINE;
  const minHealthyTimeNs = parseDuration('min-healthy-time', 'minHealthyTime', minText);
  const healthyDeadlineNs = parseDuration('healthy-deadline', 'healthyDeadline', deadlineText);
  if (raw.waitHealthy !== true) {
    const alone =
      raw.minHealthyTime !== undefined
        ? 'min-healthy-time'
        : raw.healthyDeadline !== undefined
          ? 'healthy-deadline'
          : undefined;
    if (alone === undefined) return undefined;
    throw new RestartValidationError(`The -${alone} option can only be used with -wait-healthy`, {
      field: alone === 'min-healthy-time' ? 'minHealthyTime' : 'healthyDeadline',
    });
  }
  if (minHealthyTimeNs < 0) {
    throw invalid('min-healthy-time', minText, 'duration must not be negative', 'minHealthyTime');
  }
  if (healthyDeadlineNs <= 0) {
    throw invalid('healthy-deadline', deadlineText, 'duration must be greater than zero', 'healthyDeadline');
  }
  if (minHealthyTimeNs >= healthyDeadlineNs) {
    throw invalid(
      'min-healthy-time',
      minText,
      `minimum healthy time ${formatGoDuration(minHealthyTimeNs)} must be less than -healthy-deadline ${formatGoDuration(healthyDeadlineNs)}`,
      'minHealthyTime',
    );
  }
  return { minHealthyTimeNs, healthyDeadlineNs };
}

function parseDuration(flag: string, field: string, text: string): number {
  try {
    return parseGoDuration(text);
  } catch (err) {
    throw new RestartValidationError(`Invalid -${flag} value ${goQuote(text)}: ${errorText(err)}`, {
      field,
      cause: err,
    });
  }
}
