/**
 * Go's two string-quoting rules, because Nomad's messages embed values with them and we
 * reproduce those messages byte for byte.
 */

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

const SHORT_ESCAPES: Record<string, string> = {
  '\u0007': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\u000b': '\\v',
};

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/**
 * Go's `strconv.Quote` (what `fmt`'s `%q` prints): printable runes stay as they are,
 * `"` and `\` are escaped, control characters use `\n`-style or `\xHH` escapes, other
 * non-printable runes `\uHHHH` / `\UHHHHHHHH`.
 */
export function goQuote(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '"' || ch === '\\') {
      out += `\\${ch}`;
    } else if ((code >= 0x20 && code < 0x7f) || PRINTABLE.test(ch)) {
      // Every ASCII character from space to `~` is printable: the Unicode-class pattern, whose
      // first use costs more than a millisecond to compile, is only needed beyond ASCII.
      out += ch;
    } else if (SHORT_ESCAPES[ch] !== undefined) {
      out += SHORT_ESCAPES[ch];
    } else if (code < 0x20 || code === 0x7f) {
      out += `\\x${hex(code, 2)}`;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      // A lone surrogate cannot come from valid UTF-8; Go would print the replacement rune.
      out += '\\ufffd';
    } else if (code < 0x10000) {
      out += `\\u${hex(code, 4)}`;
    } else {
      out += `\\U${hex(code, 8)}`;
    }
  }
  return `${out}"`;
}

const encoder = new TextEncoder();

/**
 * The `time` package's private `quote`, used in `ParseDuration` errors: ASCII as is
 * (`"` and `\` escaped), every byte of anything else or of a control character as `\xHH`.
 */
export function goTimeQuote(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code >= 0x80 || code < 0x20) {
      for (const byte of encoder.encode(ch)) out += `\\x${hex(byte, 2)}`;
    } else {
      out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
    }
  }
  return `${out}"`;
}
