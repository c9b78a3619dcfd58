/** Go `time.ParseDuration`, returning milliseconds (fractions kept), or undefined when invalid. */

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

const PART = /^(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/;

/**
 * Parses a Go duration string such as `100ms`, `1m30s` or `300000ms`.
 * @returns milliseconds, or `undefined` when Go would reject the text.
 */
export function parseGoDuration(text: string): number | undefined {
  let rest = text;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  // Go accepts a bare "0" (and only that) without a unit.
  if (rest === '0') return 0;
  if (rest === '') return undefined;
  let total = 0;
  while (rest.length > 0) {
    const match = PART.exec(rest);
    if (!match) return undefined;
    const [whole, amount, unit] = match;
    if (amount === undefined || unit === undefined) return undefined;
    total += Number(amount) * (UNIT_MS[unit] ?? Number.NaN);
    rest = rest.slice(whole.length);
  }
  return Number.isFinite(total) ? sign * total : undefined;
}

/** Formats milliseconds the way Go prints a `time.Duration` (`1m30s`, `100ms`, `0s`). */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  return `${h > 0 ? `${h}h` : ''}${h > 0 || m > 0 ? `${m}m` : ''}${s}s`;
}
