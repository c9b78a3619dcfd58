/**
 * `-started-before` (beyond Nomad; input field `startedBefore`): the time an allocation's tasks in
 * scope must have last started before for it to be restarted. Given as an RFC 3339 time with a
 * zone, or as a Go duration meaning that long before the run's start; resolved here, once, into
 * an absolute time (Unix ms), so every later step, and a resumed run, uses the same one.
 */
import { parseGoDuration } from '../go/duration';
import { goQuote } from '../go/quote';
import { RestartValidationError } from './errors';
import { parseRfc3339 } from './window';

/** What `-started-before` / `startedBefore` accepts, in words; used in the schema and in errors. */
export const STARTED_BEFORE_ALLOWED =
  'an RFC 3339 time with a zone, e.g. "2026-12-07T09:00:00Z", or a Go duration meaning that long before now, e.g. "2h" (string)';

function invalid(value: string, reason: string): RestartValidationError {
  return new RestartValidationError(`Invalid -started-before value ${goQuote(value)}: ${reason}`, {
    field: 'startedBefore',
  });
}

/**
 * The absolute time `text` stands for (Unix ms, to the millisecond): an RFC 3339 time as given, a
 * duration counted back from `countFrom`. A time after `now` is refused: no task can have started
 * after it yet, so such a run would restart every allocation, which is not what the flag asks.
 *
 * @param now the run's start (Unix ms): the clock at flag parsing, the execution's start in
 *   "Validate input", the fleet's start in "Plan fleet"
 * @param countFrom what a duration counts back from: a schedule's `scheduledTime` (its flexible
 *   window may start the run later; "2h before" does not move), else `now`
 * @throws RestartValidationError naming the flag, quoting the value, saying what is allowed
 */
export function resolveStartedBefore(text: string, now: number, countFrom = now): number {
  let time = parseRfc3339(text);
  if (time === undefined) {
    let ns: number;
    try {
      ns = parseGoDuration(text);
    } catch {
      throw invalid(text, `expected ${STARTED_BEFORE_ALLOWED}`);
    }
    // To whole milliseconds, rounded back: the time is never later than the duration says.
    time = countFrom - Math.ceil(ns / 1e6);
  }
  if (time > now) {
    throw invalid(
      text,
      `the time ${new Date(time).toISOString()} is in the future (it is ${new Date(now).toISOString()}); no allocation can have started after it yet`,
    );
  }
  return time;
}

/**
 * `startedBefore` as the execution input carries it: RFC 3339 in UTC with milliseconds, which
 * {@link resolveStartedBefore} reads back to the same Unix ms.
 */
export function formatStartedBefore(timeMs: number): string {
  return new Date(timeMs).toISOString();
}

/**
 * Go's zero `time.Time` as Nomad's JSON writes a `StartedAt` that was never set
 * (`0001-01-01T00:00:00Z`), as Unix ms: any time before year 2 is "never".
 */
const GO_ZERO_TIME_BOUND = Date.parse('0002-01-01T00:00:00Z');

/**
 * When a task last started (Unix ms, truncated to the millisecond, so `< startedBefore` is exact),
 * from its `TaskStates[task].StartedAt`; `undefined` when it never started: `null`, absent, Go's
 * zero time, or unreadable.
 */
export function taskStartedAt(startedAt: string | null | undefined): number | undefined {
  if (startedAt === null || startedAt === undefined) return undefined;
  const ms = parseRfc3339(startedAt);
  return ms === undefined || ms < GO_ZERO_TIME_BOUND ? undefined : ms;
}
