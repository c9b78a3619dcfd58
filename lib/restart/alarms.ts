/**
 * Beyond Nomad: `-stop-on-alarm <CloudWatch alarm name or ARN>` (repeatable) and `-bake-time
 * <duration>`. The alarms are read before each batch and during health waits; one in `ALARM` stops
 * the run as a failed batch does. With `-bake-time`, they (and the health gate) are watched that
 * long after the last batch before the run succeeds. This module is the pure part: the options'
 * checks, names from ARNs, what the reader answers, and the error line of a fired alarm.
 */
import { formatGoDuration, parseGoDuration } from '../go/duration';
import { goQuote } from '../go/quote';
import type { BatchError } from './allocation-errors';
import { errorText, RestartValidationError } from './errors';
import type { FiredAlarm } from './events';

/**
 * An alarm ARN: `arn:<partition>:cloudwatch:<region>:<account>:alarm:<name>` (the name may hold
 * colons). https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazoncloudwatch.html
 */
const ALARM_ARN_RE = /^arn:[a-z0-9-]+:cloudwatch:[a-z0-9-]+:[0-9]{12}:alarm:(.+)$/;

/** `DescribeAlarms` takes names of 1 to 255 characters (API_DescribeAlarms, `AlarmNames`). */
const MAX_ALARM_NAME = 255;

/** What `-stop-on-alarm` accepts, in words (the flag's help and the input's schema). */
export const STOP_ON_ALARM_ALLOWED =
  'CloudWatch alarm names or ARNs (arn:aws:cloudwatch:<region>:<account>:alarm:<name>), strings';

/** What `-bake-time` accepts, in words. */
export const BAKE_TIME_ALLOWED =
  'a Go duration greater than zero, e.g. "10m" (string); only with stopOnAlarms or waitHealthy';

/** The alarm's name: `nameOrArn` itself, or the name an alarm ARN ends with. */
export function alarmNameOf(nameOrArn: string): string {
  return ALARM_ARN_RE.exec(nameOrArn)?.[1] ?? nameOrArn;
}

/** The distinct names of `alarms` (names or ARNs): what one `DescribeAlarms` read asks for. */
export function alarmNamesOf(alarms: readonly string[]): string[] {
  return [...new Set(alarms.map(alarmNameOf))];
}

/** The alarm options as typed (flag strings or input fields). */
export interface RawAlarmFields {
  readonly stopOnAlarms?: readonly string[] | undefined;
  readonly bakeTime?: string | undefined;
  /** Whether `-wait-healthy` is on: `-bake-time` also watches the health gate. */
  readonly waitHealthy: boolean;
}

/**
 * Checks `-stop-on-alarm` and `-bake-time`: each alarm a name CloudWatch could hold or an alarm
 * ARN (an ARN of anything else is refused, never read as a name), the bake a positive duration
 * with something to watch. Duplicates are read once.
 * @throws RestartValidationError naming the flag and quoting the value
 */
export function validateAlarmFields(raw: RawAlarmFields): { stopOnAlarms?: string[]; bakeTimeMs?: number } {
  const out: { stopOnAlarms?: string[]; bakeTimeMs?: number } = {};
  for (const value of raw.stopOnAlarms ?? []) {
    const name = alarmNameOf(value);
    const reason = value.startsWith('arn:')
      ? name === value
        ? 'an ARN must be a CloudWatch alarm ARN, arn:<partition>:cloudwatch:<region>:<account>:alarm:<name>'
        : undefined
      : value.trim() === ''
        ? 'alarm name must not be empty'
        : undefined;
    const tooLong =
      name.length > MAX_ALARM_NAME ? `alarm name is longer than ${MAX_ALARM_NAME} characters` : undefined;
    if (reason !== undefined || tooLong !== undefined) {
      throw new RestartValidationError(
        `Invalid -stop-on-alarm value ${goQuote(value)}: ${reason ?? tooLong}`,
        {
          field: 'stopOnAlarms',
        },
      );
    }
  }
  if ((raw.stopOnAlarms ?? []).length > 0) out.stopOnAlarms = [...new Set(raw.stopOnAlarms)];
  if (raw.bakeTime !== undefined) {
    const ns = parseBakeTime(raw.bakeTime);
    if (out.stopOnAlarms === undefined && !raw.waitHealthy) {
      throw new RestartValidationError(
        'The -bake-time option can only be used with -stop-on-alarm or -wait-healthy: there is nothing to watch',
        { field: 'bakeTime' },
      );
    }
    out.bakeTimeMs = Math.ceil(ns / 1e6);
  }
  return out;
}

function parseBakeTime(text: string): number {
  let ns: number;
  try {
    ns = parseGoDuration(text);
  } catch (err) {
    throw new RestartValidationError(`Invalid -bake-time value ${goQuote(text)}: ${errorText(err)}`, {
      field: 'bakeTime',
      cause: err,
    });
  }
  if (ns <= 0) {
    throw new RestartValidationError(
      `Invalid -bake-time value ${goQuote(text)}: duration must be greater than zero`,
      { field: 'bakeTime' },
    );
  }
  return ns;
}

/** `-bake-time` as the input carries it back (`toRestartInput`). */
export function formatBakeTime(bakeTimeMs: number): string {
  return formatGoDuration(bakeTimeMs * 1e6);
}

/** An alarm as CloudWatch shows it now. */
export interface AlarmReading {
  readonly name: string;
  /** `StateValue`: `OK`, `ALARM` or `INSUFFICIENT_DATA`. */
  readonly state: string;
  readonly reason: string;
  /** `StateUpdatedTimestamp` (Unix ms). */
  readonly since: number;
}

/**
 * Reads alarms by name (lib/alarms/cloudwatch-alarms.ts over `DescribeAlarms`). Answers every name
 * asked; one CloudWatch does not hold fails the read (`AlarmNotFoundError`) rather than being
 * silently unwatched.
 */
export interface AlarmReader {
  read(names: readonly string[], signal?: AbortSignal): Promise<AlarmReading[]>;
}

/** The first of the run's alarms (names or ARNs) that is in `ALARM` now, if any. */
export async function firedAlarm(
  reader: AlarmReader,
  alarms: readonly string[],
  signal?: AbortSignal,
): Promise<FiredAlarm | undefined> {
  const readings = await reader.read(alarmNamesOf(alarms), signal);
  const fired = readings.find((reading) => reading.state === 'ALARM');
  return fired === undefined ? undefined : { name: fired.name, reason: fired.reason, since: fired.since };
}

/**
 * The run error of a fired alarm, as the error list and the summary show it: its name, why
 * (CloudWatch's `StateReason`) and since when. Not unrecoverable: the alarm ends this run, not the
 * job's restarts for good.
 */
export function alarmFiredError(alarm: FiredAlarm): BatchError {
  return {
    message: `Alarm ${goQuote(alarm.name)} is in ALARM since ${new Date(alarm.since).toISOString()}: ${alarm.reason}`,
    unrecoverable: false,
  };
}
