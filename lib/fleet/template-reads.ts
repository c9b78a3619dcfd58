/**
 * Which Nomad variables and Vault secrets one task template reads, from its text alone: the calls
 * of consul-template's functions that read them (`nomadVar`, `nomadVarExists`, `nomadVarList`,
 * `nomadVarListSafe`, `secret`) with their first argument. Go's template syntax is followed as far
 * as it matters here: only text inside actions counts, comments and string literals are not calls,
 * `.secret` and `$secret` are a field and a variable, and the delimiters may be the template's own
 * (`left_delimiter`/`right_delimiter`). A call whose path is not written as a literal (`nomadVar
 * (printf ...)`) cannot be known from the text: it is reported as such, never guessed.
 */

/** One read a template makes. `namespace` is set when the path names one (`<path>@<namespace>`). */
export type TemplateRead =
  /** `nomadVar "<path>"`, `nomadVarExists "<path>"`: one variable. */
  | { readonly kind: 'variable'; readonly path: string; readonly namespace?: string }
  /** `nomadVarList "<prefix>"`, `nomadVarListSafe "<prefix>"`: every variable under the prefix. */
  | { readonly kind: 'variable-prefix'; readonly prefix: string; readonly namespace?: string }
  /** `secret "<path>"` (`with secret`, and with write arguments after the path). */
  | { readonly kind: 'secret'; readonly path: string }
  /** A call whose path is not a literal: what it reads is known only when the task runs. */
  | { readonly kind: 'dynamic'; readonly fn: string; readonly about: 'variables' | 'secrets' };

/** Go's default action delimiters, which Nomad's `left_delimiter`/`right_delimiter` replace. */
export const DEFAULT_DELIMITERS = { left: '{{', right: '}}' } as const;

const VARIABLE_READS: ReadonlySet<string> = new Set(['nomadVar', 'nomadVarExists']);
const VARIABLE_LISTS: ReadonlySet<string> = new Set(['nomadVarList', 'nomadVarListSafe']);
const SECRET_READS: ReadonlySet<string> = new Set(['secret']);

type Token =
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'word'; readonly value: string; readonly call: boolean }
  | { readonly type: 'punct'; readonly value: string };

const GO_ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  '"': '"',
  "'": "'",
};

/** The end of the quoted literal opening at `start` (the index after its closing quote), and its value. */
function readQuoted(text: string, start: number): { end: number; value: string } {
  const quote = text[start];
  let value = '';
  let i = start + 1;
  while (i < text.length && text[i] !== quote) {
    if (quote !== '`' && text[i] === '\\' && i + 1 < text.length) {
      const next = text[i + 1] ?? '';
      value += GO_ESCAPES[next] ?? next;
      i += 2;
    } else {
      value += text[i];
      i++;
    }
  }
  return { end: i + 1, value };
}

const isWordStart = (c: string) => /[A-Za-z_]/.test(c);
const isWordChar = (c: string) => /[A-Za-z0-9_]/.test(c);

/** The tokens of one action's text (between its delimiters). */
function tokenize(action: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < action.length) {
    const c = action[i] ?? '';
    if (/\s/.test(c)) {
      i++;
    } else if (c === '"' || c === '`' || c === "'") {
      const { end, value } = readQuoted(action, i);
      tokens.push({ type: 'string', value });
      i = end;
    } else if (isWordStart(c)) {
      let end = i;
      while (end < action.length && isWordChar(action[end] ?? '')) end++;
      // `.secret` is a field and `$secret` a variable, never a call of the function `secret`.
      const before = action[i - 1];
      tokens.push({ type: 'word', value: action.slice(i, end), call: before !== '.' && before !== '$' });
      i = end;
    } else {
      tokens.push({ type: 'punct', value: c });
      i++;
    }
  }
  return tokens;
}

/**
 * The text of each action of `text`, in order, comments left out. A right delimiter inside a
 * string literal does not end the action (as Go's lexer reads it).
 */
function actions(text: string, left: string, right: string): string[] {
  const found: string[] = [];
  let at = text.indexOf(left);
  while (at !== -1) {
    let i = at + left.length;
    let end = -1;
    while (i < text.length) {
      const c = text[i] ?? '';
      if (text.startsWith(right, i)) {
        end = i;
        break;
      }
      i = c === '"' || c === '`' || c === "'" ? readQuoted(text, i).end : i + 1;
    }
    if (end === -1) break;
    const body = text.slice(at + left.length, end).replace(/^-\s/, '');
    if (!body.trimStart().startsWith('/*')) found.push(body);
    at = text.indexOf(left, end + right.length);
  }
  return found;
}

/**
 * A path as consul-template reads it (`dependency/nomad_var_get.go` `NewNVGetQuery`): spaces and
 * slashes trimmed at both ends, then `<path>@<namespace>.<region>`.
 */
function splitNomadPath(raw: string): { path: string; namespace?: string } {
  const trimmed = raw.trim().replace(/^\/+|\/+$/g, '');
  const at = trimmed.indexOf('@');
  if (at === -1) return { path: trimmed };
  const namespace = trimmed.slice(at + 1).split('.')[0] ?? '';
  const path = trimmed.slice(0, at);
  return namespace === '' ? { path } : { path, namespace };
}

/** The read a call of `fn` makes, given the token after its name. */
function readOf(fn: string, arg: Token | undefined): TemplateRead | undefined {
  const literal = arg?.type === 'string' ? arg.value : undefined;
  if (VARIABLE_LISTS.has(fn)) {
    // Without an argument the list covers every variable the task may list.
    const bare = arg === undefined || (arg.type === 'punct' && (arg.value === ')' || arg.value === '|'));
    if (literal === undefined && !bare) return { kind: 'dynamic', fn, about: 'variables' };
    const { path, namespace } = splitNomadPath(literal ?? '');
    return { kind: 'variable-prefix', prefix: path, ...(namespace === undefined ? {} : { namespace }) };
  }
  if (VARIABLE_READS.has(fn)) {
    if (literal === undefined) return { kind: 'dynamic', fn, about: 'variables' };
    const { path, namespace } = splitNomadPath(literal);
    return { kind: 'variable', path, ...(namespace === undefined ? {} : { namespace }) };
  }
  if (SECRET_READS.has(fn)) {
    if (literal === undefined) return { kind: 'dynamic', fn, about: 'secrets' };
    return { kind: 'secret', path: literal.trim().replace(/^\/+|\/+$/g, '') };
  }
  return undefined;
}

/**
 * The variables and secrets template text reads, in the order the calls appear.
 * @param delimiters the template's own (`LeftDelim`/`RightDelim`); Go's `{{`/`}}` when empty
 */
export function templateReads(
  text: string,
  delimiters: { readonly left?: string; readonly right?: string } = {},
): TemplateRead[] {
  const left = delimiters.left || DEFAULT_DELIMITERS.left;
  const right = delimiters.right || DEFAULT_DELIMITERS.right;
  const reads: TemplateRead[] = [];
  for (const action of actions(text, left, right)) {
    const tokens = tokenize(action.replace(/\s-$/, ''));
    tokens.forEach((token, i) => {
      if (token.type !== 'word' || !token.call) return;
      const read = readOf(token.value, tokens[i + 1]);
      if (read !== undefined) reads.push(read);
    });
  }
  return reads;
}
