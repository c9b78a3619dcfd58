/**
 * The `strconv` parsers go-bexpr coerces a filter's value with (`coerce.go`): Go's base-0
 * integers (`0x1F`, `0o17`, `017`, `1_000`), floats and bools, with Go's error texts.
 */
import { parseGoBool as goBool } from '../../lib/go/strconv';

const syntax = (fn: string, raw: string) =>
  new Error(`strconv.${fn}: parsing ${JSON.stringify(raw)}: invalid syntax`);

/** `strconv.ParseBool`. @throws Error with Go's text */
export function parseGoBool(raw: string): boolean {
  const value = goBool(raw);
  if (value === undefined) throw syntax('ParseBool', raw);
  return value;
}

const BASES: Array<[RegExp, number]> = [
  [/^0[xX]((?:_?[0-9a-fA-F])+)$/, 16],
  [/^0[bB]((?:_?[01])+)$/, 2],
  [/^0[oO]((?:_?[0-7])+)$/, 8],
  [/^0((?:_?[0-7])+)$/, 8],
  [/^([1-9](?:_?[0-9])*|0)$/, 10],
];

/** `strconv.ParseInt(raw, 0, 64)` (`signed`) or `strconv.ParseUint(raw, 0, 64)`. @throws Error with Go's text */
export function parseGoInt(raw: string, signed: boolean): number {
  const negative = signed && raw.startsWith('-');
  const digits = signed && /^[+-]/.test(raw) ? raw.slice(1) : raw;
  for (const [pattern, base] of BASES) {
    const body = pattern.exec(digits)?.[1];
    if (body === undefined) continue;
    const value = Number.parseInt(body.replaceAll('_', ''), base);
    return negative ? -value : value;
  }
  throw syntax(signed ? 'ParseInt' : 'ParseUint', raw);
}

/** `strconv.ParseFloat(raw, 64)` for decimal forms and `inf`/`nan`. @throws Error with Go's text */
export function parseGoFloat(raw: string): number {
  if (/^[+-]?(inf|infinity)$/i.test(raw)) return raw.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(raw)) return Number.NaN;
  if (!/^[+-]?(\d(_?\d)*(\.(\d(_?\d)*)?)?|\.\d(_?\d)*)([eE][+-]?\d+)?$/.test(raw))
    throw syntax('ParseFloat', raw);
  return Number(raw.replaceAll('_', ''));
}
