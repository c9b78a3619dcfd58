/**
 * Small text helpers behind Nomad's output: plurals, ordinals, timestamps, indentation, the
 * error list, and how a question ended. `format.ts` builds every printed line from these.
 */

import { goQuote } from '../go/quote';
import type { ProgressEvent } from './events';

/**
 * Width of `==> ` + a 25-character timestamp + `: `. Continuation lines of questions and
 * batch errors are indented by this fixed width (off by 5 with a `Z` timestamp, as upstream).
 */
export const TIMESTAMP_PREFIX_LENGTH = 31;

/** Indentation of detail lines (`    <ts>: ...`). */
export const DETAIL_INDENT = '    ';

/** `english.Plural(n, singular, plural)`: `1 allocation`, `0 allocations`, `2 errors`. */
export function plural(n: number, singular: string, pluralForm: string): string {
  return `${n} ${n === 1 ? singular : pluralForm}`;
}

/** `humanize.Ordinal`: 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 101st, 111th. */
export function ordinal(n: number): string {
  const mod100 = Math.abs(n) % 100;
  const mod10 = Math.abs(n) % 10;
  if (mod100 >= 11 && mod100 <= 13) return `${n}th`;
  if (mod10 === 1) return `${n}st`;
  if (mod10 === 2) return `${n}nd`;
  if (mod10 === 3) return `${n}rd`;
  return `${n}th`;
}

/** Nomad's `indentString`: `pad` spaces before every line but the first. */
export function indentString(text: string, pad: number): string {
  return text.split('\n').join(`\n${' '.repeat(pad)}`);
}

/** Go's `strings.TrimSpace`. */
export function trimSpace(text: string): string {
  return text.replace(/^[\s\u0085]+|[\s\u0085]+$/gu, '');
}

/** The first line {@link formatErrorList} writes: where the error list starts in a summary's text. */
export const ERROR_LIST_HEADER = /^\d+ errors? occurred while restarting job:$/;

/**
 * The error list of Nomad's `command/job_restart.go` `errorFormat`: `<n> error(s) occurred while
 * restarting job:` then one `* <error>` per error (trimmed; multi-line errors keep their breaks),
 * every line after the first indented by `indent`.
 */
export function formatErrorList(errors: readonly string[], indent: number, omitted = 0): string {
  const points = errors.map((e) => `* ${trimSpace(e)}`);
  // Only a sample capped for a workflow state leaves errors out; Nomad's own list never does.
  if (omitted > 0)
    points.push(`* ... and ${plural(omitted, 'more error', 'more errors')} in the run's record`);
  const out = `${plural(errors.length + omitted, 'error', 'errors')} occurred while restarting job:\n${points.join('\n')}`;
  return indentString(out, indent);
}

const timestampFormats = new Map<string, Intl.DateTimeFormat>();

function timestampFormat(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let format = timestampFormats.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      ...(timeZone === undefined ? {} : { timeZone }),
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'longOffset',
    });
    timestampFormats.set(key, format);
  }
  return format;
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

/**
 * `formatTimestamp` in the process's own zone, read from the Date's local fields: building an
 * `Intl.DateTimeFormat` loads ICU's locale data, ~12 ms of CPU on the first line of every run.
 */
function formatLocalTimestamp(timeMs: number): string {
  const date = new Date(timeMs);
  const east = -date.getTimezoneOffset();
  const hours = twoDigits(Math.floor(Math.abs(east) / 60));
  const zone = east === 0 ? 'Z' : `${east < 0 ? '-' : '+'}${hours}:${twoDigits(Math.abs(east) % 60)}`;
  const day = `${String(date.getFullYear()).padStart(4, '0')}-${twoDigits(date.getMonth() + 1)}-${twoDigits(date.getDate())}`;
  return `${day}T${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}:${twoDigits(date.getSeconds())}${zone}`;
}

/**
 * Nomad's `formatTime`: RFC 3339 to the second in `timeZone` (an IANA name; default: the
 * process's local zone), `2023-02-28T17:40:58-05:00`, or `...Z` when the offset is zero.
 */
export function formatTimestamp(timeMs: number, timeZone?: string): string {
  if (timeZone === undefined) return formatLocalTimestamp(timeMs);
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of timestampFormat(timeZone).formatToParts(new Date(timeMs))) parts[part.type] = part.value;
  // `GMT`, `GMT+00:00` → Z; `GMT-05:00` → -05:00 (Go's `Z07:00`).
  const offset = (parts.timeZoneName ?? 'GMT').replace(/^GMT/, '');
  const zone = offset === '' || /^[+-]00:00$/.test(offset) ? 'Z' : offset;
  const year = (parts.year ?? '').padStart(4, '0');
  return `${year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${zone}`;
}

/**
 * How a question of a run on AWS ended, when a terminal following the run did not answer it:
 * who answered what (chat, the webhook, the console), or that nobody did in time (Nomad's
 * `command/job_restart.go` `askQuestion`: the default of a read error applies).
 */
export function questionEndText(
  event: Extract<ProgressEvent, { type: 'question-answered' | 'question-timed-out' }>,
): string {
  if (event.type === 'question-timed-out')
    return 'Nobody answered the question in time: Nomad\'s default answer, "no", applies';
  return `Question answered ${goQuote(event.answer)} by ${event.answeredBy ?? 'a caller who did not say who'}`;
}
