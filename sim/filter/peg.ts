/**
 * A small PEG interpreter that fails the way pigeon's generated parsers fail, so the simulator's
 * filter errors read as Nomad's (go-bexpr's parser is pigeon-generated from `grammar/grammar.peg`).
 * What must match pigeon: the farthest failure position and every expectation recorded there
 * (`failAt`: literals as Go's `%q`, character classes as their source text, `!.` shown as `EOF`),
 * expectations inside a `!e` recorded inverted, and errors raised by actions or `&{}` predicates
 * prefixed with the innermost rule (`rule <display name>`).
 */

/** What a parsing expression returns when it does not match. */
export const FAIL: unique symbol = Symbol('fail');
/** One parsing expression: a value, or {@link FAIL} with the position restored. */
export type Expr<T = unknown> = (p: PegParser) => T | typeof FAIL;

/** A grammar rule: its name (pigeon's display name when it has one) and body. */
export interface Rule<T> {
  readonly name: string;
  body: Expr<T>;
}

/** Pigeon's parser state for one input. */
export class PegParser {
  pos = 0;
  private maxFailPos = 0;
  private maxFailExpected: string[] = [];
  private invert = false;
  private readonly rules: string[] = [];
  private readonly errors: string[] = [];

  constructor(readonly input: string) {}

  /** pigeon's `failAt`: keeps the expectations of the farthest position only. */
  failAt(failed: boolean, at: number, want: string): void {
    if (failed === this.invert) return;
    if (at < this.maxFailPos) return;
    if (at > this.maxFailPos) {
      this.maxFailPos = at;
      this.maxFailExpected = [];
    }
    this.maxFailExpected.push(this.invert ? `!${want}` : want);
  }

  /** pigeon's `addErrAt`: `<line>:<col> (<offset>): rule <name>: <message>`. */
  addError(message: string, at = this.pos): void {
    const rule = this.rules.at(-1);
    this.errors.push(
      `${positionOf(this.input, at)}${rule === undefined ? '' : `: rule ${rule}`}: ${message}`,
    );
  }

  /** Runs a rule with its name on the stack (for error prefixes). */
  rule<T>(rule: Rule<T>): T | typeof FAIL {
    this.rules.push(rule.name);
    try {
      return rule.body(this);
    } finally {
      this.rules.pop();
    }
  }

  /** Runs `e` with expectations inverted (pigeon's `parseNotExpr`). */
  inverted(e: Expr): boolean {
    const start = this.pos;
    this.invert = !this.invert;
    const matched = e(this) !== FAIL;
    this.invert = !this.invert;
    this.pos = start;
    return matched;
  }

  /** The parse result, or pigeon's error text (errors deduplicated, one a line). */
  finish<T>(value: T | typeof FAIL): { value: T } | { error: string } {
    if (value === FAIL && this.errors.length === 0) {
      const wants = new Set(this.maxFailExpected);
      const eof = wants.delete('!.');
      const expected = [...wants].sort(byBytes);
      if (eof) expected.push('EOF');
      this.addErrorAtTop(`no match found, expected: ${listJoin(expected)}`, this.maxFailPos);
    }
    if (this.errors.length > 0) return { error: [...new Set(this.errors)].join('\n') };
    if (value === FAIL) throw new Error('unreachable: a failed parse records an error');
    return { value };
  }

  private addErrorAtTop(message: string, at: number): void {
    this.errors.push(`${positionOf(this.input, at)}: ${message}`);
  }
}

/** Go's `sort.Strings` order (bytes), which differs from JavaScript's only beyond ASCII. */
const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** pigeon's `listJoin(list, ", ", "or")`. */
function listJoin(list: string[]): string {
  if (list.length <= 1) return list.join('');
  return `${list.slice(0, -1).join(', ')} or ${list.at(-1)}`;
}

/**
 * pigeon's position: line from 1; column in runes from 1, where a newline itself is column 0 of
 * the next line (its `read` bumps the line on reading `\n`); offset in bytes.
 */
function positionOf(input: string, at: number): string {
  const before = input.slice(0, at + (input[at] === '\n' ? 1 : 0));
  const line = 1 + (before.match(/\n/g)?.length ?? 0);
  const lineStart = input.lastIndexOf('\n', input[at] === '\n' ? at - 1 : at) + 1;
  const col = input[at] === '\n' ? 0 : [...input.slice(lineStart, at)].length + 1;
  return `${line}:${col} (${Buffer.byteLength(input.slice(0, at))})`;
}

/** A literal; pigeon expects it as Go's `%q`. */
export function lit(text: string): Expr<string> {
  const want = JSON.stringify(text);
  return (p) => {
    const start = p.pos;
    const matched = p.input.startsWith(text, start);
    p.failAt(!matched, start, want);
    if (!matched) return FAIL;
    p.pos += text.length;
    return text;
  };
}

/** A character class, expected as its grammar source (`[a-zA-Z]`). */
export function cls(source: string, test: RegExp): Expr<string> {
  return (p) => {
    const start = p.pos;
    const ch = String.fromCodePoint(p.input.codePointAt(start) ?? 0);
    const matched = start < p.input.length && test.test(ch);
    p.failAt(!matched, start, source);
    if (!matched) return FAIL;
    p.pos += ch.length;
    return ch;
  };
}

/** `.`: any character. */
export const any: Expr<string> = (p) => {
  const start = p.pos;
  const matched = start < p.input.length;
  p.failAt(!matched, start, '.');
  if (!matched) return FAIL;
  const ch = String.fromCodePoint(p.input.codePointAt(start) ?? 0);
  p.pos += ch.length;
  return ch;
};

/** A sequence: every value, or FAIL with the position restored. */
export function seq(...exprs: Expr[]): Expr<unknown[]> {
  return (p) => {
    const start = p.pos;
    const values: unknown[] = [];
    for (const e of exprs) {
      const v = e(p);
      if (v === FAIL) {
        p.pos = start;
        return FAIL;
      }
      values.push(v);
    }
    return values;
  };
}

/** Ordered choice. */
export function choice<T>(...alternatives: Expr<T>[]): Expr<T> {
  return (p) => {
    for (const alternative of alternatives) {
      const v = alternative(p);
      if (v !== FAIL) return v;
    }
    return FAIL;
  };
}

/** `e*` (`min` 0) or `e+` (`min` 1). */
export function many<T>(e: Expr<T>, min = 0): Expr<T[]> {
  return (p) => {
    const values: T[] = [];
    for (let v = e(p); v !== FAIL; v = e(p)) values.push(v);
    return values.length >= min ? values : FAIL;
  };
}

/** `e?`: always matches. */
export function opt<T>(e: Expr<T>): Expr<T | undefined> {
  return (p) => {
    const v = e(p);
    return v === FAIL ? undefined : v;
  };
}

/** `!e`. */
export const not =
  (e: Expr): Expr<null> =>
  (p) =>
    p.inverted(e) ? FAIL : null;

/** `&e`: lookahead, consumes nothing. */
export function ahead(e: Expr): Expr<null> {
  return (p) => {
    const start = p.pos;
    const matched = e(p) !== FAIL;
    p.pos = start;
    return matched ? null : FAIL;
  };
}

/** `&{ return false, errors.New(message) }`: records the error and fails. */
export const raise =
  (message: string): Expr<never> =>
  (p) => {
    p.addError(message);
    return FAIL;
  };

/** An action: `build` runs on the matched value and text; a thrown error is recorded at the start. */
export function action<T, R>(e: Expr<T>, build: (value: T, text: string) => R): Expr<R> {
  return (p) => {
    const start = p.pos;
    const v = e(p);
    if (v === FAIL) return FAIL;
    try {
      return build(v, p.input.slice(start, p.pos));
    } catch (error) {
      p.addError((error as Error).message, start);
      return undefined as R;
    }
  };
}

/** A named rule, defined later (rules refer to each other). */
export function rule<T>(name: string): Rule<T> & Expr<T> {
  const r = ((p: PegParser) => p.rule(r)) as Rule<T> & Expr<T> & { body: Expr<T> };
  Object.defineProperty(r, 'name', { value: name });
  r.body = () => FAIL;
  return r;
}
