/**
 * Go durations in the simulator's milliseconds. The rules are lib/go/duration's (Go's
 * `time.ParseDuration` and `Duration.String`); this only converts units and turns Go's
 * parse error into `undefined`, which the simulator answers as Nomad does (400, or "forever").
 */
import { formatGoDuration as formatNs, parseGoDuration as parseNs } from '../lib/go/duration';

/** Milliseconds (fractions kept), or `undefined` when Go would reject the text. */
export function parseGoDuration(text: string): number | undefined {
  try {
    return parseNs(text) / 1e6;
  } catch {
    return undefined;
  }
}

/** Formats milliseconds the way Go prints a `time.Duration` (`1m30s`, `100ms`, `0s`). */
export function formatGoDuration(ms: number): string {
  return formatNs(ms * 1e6);
}
