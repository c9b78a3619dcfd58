/**
 * Maintenance windows and who started a run: the input fields beyond Nomad's flags that a
 * schedule (or a console user) sets — `windowEnd`, `windowDuration`, `trigger`, `scheduleName`,
 * `scheduledTime` — checked, turned into options, resolved against the run's start, and the
 * one test every safe point makes: has the window ended?
 */
import { formatGoDuration, parseGoDuration } from '../go/duration';
import { errorText, RestartValidationError } from './errors';
import type { RestartOptions } from './options';

/** The `trigger` value a schedule sets: a locked job then skips the run instead of failing it. */
export const SCHEDULE_TRIGGER = 'schedule';

/** What each window field accepts, in words; used in the JSON Schema and in error messages. */
export const WINDOW_FIELDS_ALLOWED = {
  windowEnd: 'an RFC 3339 time with a zone, e.g. "2026-11-29T05:00:00+01:00" (string)',
  windowDuration:
    'a Go duration greater than zero, e.g. "2h" (string), counted from scheduledTime, else from the execution start',
  trigger: `"${SCHEDULE_TRIGGER}" (set by a schedule: a run that finds the job locked is skipped, not failed)`,
  scheduleName: 'the name of the schedule that started the run (string)',
  scheduledTime: 'an RFC 3339 time with a zone: when the schedule fired (string)',
  resumeNextWindow:
    'true or false: a run stopped at its window end leaves the rest to the next run of its schedule (needs scheduleName)',
} as const;

/** The window and trigger fields as they arrive in the input (already type-checked by the schema). */
export interface RawWindowFields {
  readonly windowEnd?: string | undefined;
  readonly windowDuration?: string | undefined;
  readonly trigger?: typeof SCHEDULE_TRIGGER | undefined;
  readonly scheduleName?: string | undefined;
  readonly scheduledTime?: string | undefined;
  readonly resumeNextWindow?: boolean | undefined;
}

/** The options these fields set. */
export type WindowOptions = Pick<
  RestartOptions,
  'windowEnd' | 'windowDurationNs' | 'trigger' | 'scheduleName' | 'scheduledTime' | 'resumeNextWindow'
>;

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;

/** Unix ms of an RFC 3339 time (with a zone: a window must not move with a machine's zone), or `undefined`. */
export function parseRfc3339(text: string): number | undefined {
  const m = RFC3339.exec(text);
  if (m === null) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const offsetHours = m[9] === undefined ? 0 : Number(m[9]);
  const offsetMinutes = m[10] === undefined ? 0 : Number(m[10]);
  // Date.parse accepts February 30 (it rolls over): check the fields against the calendar.
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) return undefined;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  const ms = Date.parse(text.toUpperCase());
  return Number.isNaN(ms) ? undefined : ms;
}

function invalidField(
  field: 'windowEnd' | 'windowDuration' | 'scheduledTime',
  value: string,
  cause?: unknown,
) {
  const reason = cause === undefined ? '' : ` (${errorText(cause)})`;
  return new RestartValidationError(
    `Invalid input field ${JSON.stringify(field)}: got ${JSON.stringify(value)}, expected ${WINDOW_FIELDS_ALLOWED[field]}${reason}`,
    { field, cause },
  );
}

function timeField(field: 'windowEnd' | 'scheduledTime', value: string): number {
  const ms = parseRfc3339(value);
  if (ms === undefined) throw invalidField(field, value);
  return ms;
}

/**
 * Checks the window and trigger fields and returns the options they set. Checked after Nomad's
 * own checks, so Nomad's order and messages are unchanged.
 *
 * @throws RestartValidationError naming the field, quoting the value, saying what is allowed
 */
export function validateWindowFields(raw: RawWindowFields): WindowOptions {
  const out: { -readonly [K in keyof WindowOptions]: WindowOptions[K] } = {};
  if (raw.windowEnd !== undefined) out.windowEnd = timeField('windowEnd', raw.windowEnd);
  if (raw.windowDuration !== undefined) {
    let ns: number;
    try {
      ns = parseGoDuration(raw.windowDuration);
    } catch (err) {
      throw invalidField('windowDuration', raw.windowDuration, err);
    }
    if (ns <= 0) throw invalidField('windowDuration', raw.windowDuration);
    out.windowDurationNs = ns;
  }
  if (raw.trigger !== undefined) out.trigger = raw.trigger;
  if (raw.scheduleName !== undefined) out.scheduleName = raw.scheduleName;
  if (raw.scheduledTime !== undefined) out.scheduledTime = timeField('scheduledTime', raw.scheduledTime);
  if (raw.resumeNextWindow === true) {
    // The rest is left to "the next run of the schedule": without a schedule there is none.
    if (raw.scheduleName === undefined) {
      throw new RestartValidationError(
        `Invalid input field "resumeNextWindow": got true, expected false without a "scheduleName" (${WINDOW_FIELDS_ALLOWED.resumeNextWindow})`,
        { field: 'resumeNextWindow' },
      );
    }
    out.resumeNextWindow = true;
  }
  return out;
}

/** The input fields that validate back to `options`' window and trigger (for `toRestartInput`). */
export function windowInputFields(options: RestartOptions): RawWindowFields {
  return {
    ...(options.windowEnd === undefined ? {} : { windowEnd: new Date(options.windowEnd).toISOString() }),
    ...(options.windowDurationNs === undefined
      ? {}
      : { windowDuration: formatGoDuration(options.windowDurationNs) }),
    ...(options.trigger === undefined ? {} : { trigger: options.trigger }),
    ...(options.scheduleName === undefined ? {} : { scheduleName: options.scheduleName }),
    ...(options.scheduledTime === undefined
      ? {}
      : { scheduledTime: new Date(options.scheduledTime).toISOString() }),
    ...(options.resumeNextWindow === true ? { resumeNextWindow: true } : {}),
  };
}

/**
 * Turns a relative window into an absolute one, once, when the run starts: `windowDuration`
 * counts from `scheduledTime` when a schedule set it (a flexible window may start the run
 * later, the maintenance window does not move), else from `startedAt` (the execution's start).
 * With both `windowEnd` and `windowDuration`, the earlier end wins.
 */
export function resolveWindow<T extends WindowOptions>(options: T, startedAt: number): T {
  const { windowDurationNs, ...rest } = options;
  if (windowDurationNs === undefined) return options;
  const end = (options.scheduledTime ?? startedAt) + Math.ceil(windowDurationNs / 1e6);
  // `T` without its (optional) duration, now an end: still a `T`.
  return { ...rest, windowEnd: Math.min(end, options.windowEnd ?? end) } as T;
}

/** Whether no batch may start at `now` (Unix ms): the window has an end and it has come. */
export function windowHasEnded(options: Pick<WindowOptions, 'windowEnd'>, now: number): boolean {
  return options.windowEnd !== undefined && now >= options.windowEnd;
}

/** Whether a run that finds the job locked is skipped (a schedule started it) rather than failed. */
export function skipsWhenLocked(options: Pick<WindowOptions, 'trigger'>): boolean {
  return options.trigger === SCHEDULE_TRIGGER;
}
