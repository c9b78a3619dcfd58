/**
 * Go's `strconv.Unquote` for the two string forms go-bexpr accepts: a backquoted raw string
 * (carriage returns dropped) and a double-quoted string with Go's escapes.
 * @throws Error `invalid syntax` (Go's `strconv.ErrSyntax` text) for a bad escape or a newline.
 */
export function goUnquote(quoted: string): string {
  const body = quoted.slice(1, -1);
  if (quoted.startsWith('`')) return body.replaceAll('\r', '');
  if (body.includes('\n')) throw new Error('invalid syntax');
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i] ?? '';
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const [decoded, length] = escapeAt(body, i + 1);
    out += decoded;
    i += length;
  }
  return out;
}

const SIMPLE: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  '"': '"',
};
const HEX_LENGTH: Record<string, number> = { x: 2, u: 4, U: 8 };

/** The escape after a backslash at `at`: its text and how many characters it took. */
function escapeAt(body: string, at: number): [string, number] {
  const kind = body[at] ?? '';
  const simple = SIMPLE[kind];
  if (simple !== undefined) return [simple, 1];
  const hexLength = HEX_LENGTH[kind];
  if (hexLength !== undefined) {
    const digits = body.slice(at + 1, at + 1 + hexLength);
    if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length !== hexLength) throw new Error('invalid syntax');
    const code = Number.parseInt(digits, 16);
    if (code > 0x10ffff) throw new Error('invalid syntax');
    return [String.fromCodePoint(code), 1 + hexLength];
  }
  const octal = body.slice(at, at + 3);
  if (/^[0-7]{3}$/.test(octal) && Number.parseInt(octal, 8) <= 255) {
    return [String.fromCharCode(Number.parseInt(octal, 8)), 3];
  }
  throw new Error('invalid syntax');
}
