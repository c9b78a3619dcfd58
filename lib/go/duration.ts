/**
 * Go's `time.ParseDuration` and `time.Duration.String()`, ported rule for rule: Nomad
 * parses `-batch-wait` and proceed-question answers with the first and prints every
 * duration with the second, and our lines must match its lines.
 *
 * Durations are nanoseconds. Arithmetic runs on `bigint` so that overflow is detected at
 * exactly Go's int64 limits; the result is returned as a `number`.
 */
import { GoDurationError } from './errors';
import { goTimeQuote } from './quote';

const NANOSECOND = 1n;
const MICROSECOND = 1000n * NANOSECOND;
const MILLISECOND = 1000n * MICROSECOND;
const SECOND = 1000n * MILLISECOND;
const MINUTE = 60n * SECOND;
const HOUR = 60n * MINUTE;

/** Go's units, case-sensitive; both the micro sign (U+00B5) and Greek mu (U+03BC) mean µs. */
const UNITS: ReadonlyMap<string, bigint> = new Map([
  ['ns', NANOSECOND],
  ['us', MICROSECOND],
  ['\u00b5s', MICROSECOND],
  ['\u03bcs', MICROSECOND],
  ['ms', MILLISECOND],
  ['s', SECOND],
  ['m', MINUTE],
  ['h', HOUR],
]);

/** 1 << 63: the magnitude of the most negative int64. */
const LIMIT = 1n << 63n;

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** Go's `leadingInt`: the digits at the start of `s`, or `undefined` on int64 overflow. */
function leadingInt(s: string): { value: bigint; rest: string } | undefined {
  let i = 0;
  let x = 0n;
  for (; i < s.length && isDigit(s[i]); i++) {
    if (x > LIMIT / 10n) return undefined;
    x = x * 10n + BigInt(s.charCodeAt(i) - 48);
    if (x > LIMIT) return undefined;
  }
  return { value: x, rest: s.slice(i) };
}

/** Go's `leadingFraction`: digits after the dot; extra precision past int64 is dropped, not an error. */
function leadingFraction(s: string): { value: bigint; scale: number; rest: string } {
  let i = 0;
  let x = 0n;
  let scale = 1;
  let overflow = false;
  for (; i < s.length && isDigit(s[i]); i++) {
    if (overflow) continue;
    if (x > (LIMIT - 1n) / 10n) {
      overflow = true;
      continue;
    }
    const y = x * 10n + BigInt(s.charCodeAt(i) - 48);
    if (y > LIMIT) {
      overflow = true;
      continue;
    }
    x = y;
    scale *= 10;
  }
  return { value: x, scale, rest: s.slice(i) };
}

/**
 * Parses a Go duration string (`300ms`, `-1.5h`, `2h45m`, bare `0`) into nanoseconds.
 *
 * @throws GoDurationError with Go's exact message, e.g. `time: invalid duration "x"`,
 *   `time: missing unit in duration "10"`, `time: unknown unit "d" in duration "1d"`.
 */
export function parseGoDuration(text: string): number {
  const orig = text;
  const invalid = () => new GoDurationError(`time: invalid duration ${goTimeQuote(orig)}`);
  let s = text;
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  // A bare zero needs no unit (Go special-cases it).
  if (s === '0') return 0;
  if (s === '') throw invalid();
  let total = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || isDigit(s[0]))) throw invalid();
    const beforeInt = s.length;
    const int = leadingInt(s);
    if (int === undefined) throw invalid();
    s = int.rest;
    const pre = beforeInt !== s.length;
    let post = false;
    let fraction = 0n;
    let scale = 1;
    if (s[0] === '.') {
      s = s.slice(1);
      const beforeFrac = s.length;
      const frac = leadingFraction(s);
      fraction = frac.value;
      scale = frac.scale;
      s = frac.rest;
      post = beforeFrac !== s.length;
    }
    // "." or "-." alone is not a number.
    if (!pre && !post) throw invalid();
    let i = 0;
    while (i < s.length && !(s[i] === '.' || isDigit(s[i]))) i++;
    if (i === 0) throw new GoDurationError(`time: missing unit in duration ${goTimeQuote(orig)}`);
    const unitText = s.slice(0, i);
    s = s.slice(i);
    const unit = UNITS.get(unitText);
    if (unit === undefined) {
      throw new GoDurationError(
        `time: unknown unit ${goTimeQuote(unitText)} in duration ${goTimeQuote(orig)}`,
      );
    }
    if (int.value > LIMIT / unit) throw invalid();
    let v = int.value * unit;
    if (fraction > 0n) {
      // Go converts through float64 here, so we do too (same rounding).
      v += BigInt(Math.trunc(Number(fraction) * (Number(unit) / scale)));
      if (v > LIMIT) throw invalid();
    }
    total += v;
    if (total > LIMIT) throw invalid();
  }
  if (neg) return Number(-total);
  if (total > LIMIT - 1n) throw invalid();
  return Number(total);
}

/** Go's `fmtFrac`: the fraction of v/10^prec without trailing zeros (no dot when it is 0). */
function fmtFrac(v: bigint, prec: number): { text: string; rest: bigint } {
  let text = '';
  let print = false;
  let rest = v;
  for (let i = 0; i < prec; i++) {
    const digit = rest % 10n;
    print = print || digit !== 0n;
    if (print) text = `${digit}${text}`;
    rest /= 10n;
  }
  return { text: print ? `.${text}` : '', rest };
}

/**
 * Formats nanoseconds exactly like Go's `Duration.String()`: `0s`, `1.5µs`, `500ms`,
 * `1.5s`, `1m0s`, `1h0m0s`, `2h3m4.5s`, `-2s`. Fractions of a nanosecond are truncated.
 */
export function formatGoDuration(ns: number): string {
  const d = BigInt(Math.trunc(ns));
  const neg = d < 0n;
  let u = neg ? -d : d;
  let out: string;
  if (u < SECOND) {
    if (u === 0n) return '0s';
    let prec: number;
    let unit: string;
    if (u < MICROSECOND) {
      prec = 0;
      unit = 'ns';
    } else if (u < MILLISECOND) {
      prec = 3;
      unit = '\u00b5s';
    } else {
      prec = 6;
      unit = 'ms';
    }
    const frac = fmtFrac(u, prec);
    out = `${frac.rest}${frac.text}${unit}`;
  } else {
    const frac = fmtFrac(u, 9);
    u = frac.rest;
    out = `${u % 60n}${frac.text}s`;
    u /= 60n;
    if (u > 0n) {
      out = `${u % 60n}m${out}`;
      u /= 60n;
      if (u > 0n) out = `${u}h${out}`;
    }
  }
  return neg ? `-${out}` : out;
}
