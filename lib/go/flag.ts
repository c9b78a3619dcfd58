/**
 * A small parser with the rules of Go's `flag` package, because `nomad job restart`
 * parses its command line with it and we must accept and refuse exactly the same
 * command lines with the same messages. No npm parser matches these rules (single-dash
 * long flags, `--flag` equal to `-flag`, booleans that never take the next argument,
 * parsing that stops at the first non-flag, Go's error texts), so this is a port of
 * `FlagSet.parseOne`.
 */
import { GoFlagSyntaxError } from './errors';
import { goQuote } from './quote';
import { parseGoBool } from './strconv';

/** `bool`: `-f`, `-f=false`; `string`: `-f v`, `-f=v`, last one wins; `list`: repeatable string. */
export type GoFlagKind = 'bool' | 'string' | 'list';

/** Flag definitions by name (without dashes). */
export type GoFlagSpecs = Readonly<Record<string, GoFlagKind>>;

/** Parsed flags: only the flags that were given appear. */
export interface GoFlagResult {
  bools: Map<string, boolean>;
  strings: Map<string, string>;
  lists: Map<string, string[]>;
  /** Arguments after the flags (after the first non-flag, or after `--`). */
  args: string[];
}

/**
 * Parses `args` against `specs` like `flag.FlagSet.Parse` with `ContinueOnError`.
 *
 * @throws GoFlagSyntaxError with Go's message: `flag provided but not defined: -foo`,
 *   `invalid boolean value "maybe" for -yes: parse error`, `flag needs an argument: -batch-size`,
 *   `bad flag syntax: ---x`.
 */
export function parseGoFlags(args: readonly string[], specs: GoFlagSpecs): GoFlagResult {
  const result: GoFlagResult = { bools: new Map(), strings: new Map(), lists: new Map(), args: [] };
  let i = 0;
  while (i < args.length) {
    const s = args[i] ?? '';
    // A non-flag (including "-" alone) ends the flags.
    if (s.length < 2 || s[0] !== '-') break;
    let minuses = 1;
    if (s[1] === '-') {
      minuses = 2;
      if (s.length === 2) {
        i++; // "--" ends the flags and is dropped.
        break;
      }
    }
    let name = s.slice(minuses);
    if (name.length === 0 || name[0] === '-' || name[0] === '=')
      throw new GoFlagSyntaxError(`bad flag syntax: ${s}`);
    i++;
    let value: string | undefined;
    const eq = name.indexOf('=', 1);
    if (eq > 0) {
      value = name.slice(eq + 1);
      name = name.slice(0, eq);
    }
    const kind = Object.hasOwn(specs, name) ? specs[name] : undefined;
    if (kind === undefined) throw new GoFlagSyntaxError(`flag provided but not defined: -${name}`);
    if (kind === 'bool') {
      const parsed = value === undefined ? true : parseGoBool(value);
      if (parsed === undefined)
        throw new GoFlagSyntaxError(
          `invalid boolean value ${goQuote(value ?? '')} for -${name}: parse error`,
        );
      result.bools.set(name, parsed);
      continue;
    }
    if (value === undefined) {
      // A string flag takes the next argument, whatever it looks like (even "-yes").
      if (i >= args.length) throw new GoFlagSyntaxError(`flag needs an argument: -${name}`);
      value = args[i] ?? '';
      i++;
    }
    if (kind === 'string') result.strings.set(name, value);
    else result.lists.set(name, [...(result.lists.get(name) ?? []), value]);
  }
  result.args = args.slice(i);
  return result;
}
