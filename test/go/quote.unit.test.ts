// Scenario: Go's `strconv.Quote` as Nomad's messages print values with `%q`: ASCII as it is but
// for `"` and `\`, control characters escaped, other runes kept when Go's `IsPrint` holds.
import { goQuote } from '../../lib/go/quote';

describe('goQuote', () => {
  it('keeps every printable ASCII character but the quote and the backslash', () => {
    // Arrange
    const ascii = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i))
      .filter((ch) => ch !== '"' && ch !== '\\')
      .join('');

    // Act
    const quoted = goQuote(ascii);

    // Assert
    expect(quoted).toBe(`"${ascii}"`);
  });

  it.each([
    ['a"b\\c', '"a\\"b\\\\c"'],
    ['\n\t\u0007\u000b', '"\\n\\t\\a\\v"'],
    ['\u0000\u001f\u007f', '"\\x00\\x1f\\x7f"'],
    ['é日本😀', '"é日本😀"'],
    ['\u00a0\u200b', '"\\u00a0\\u200b"'],
    ['\u{e0001}', '"\\U000e0001"'],
  ])('quotes %j as Go does: %s', (text, expected) => {
    // Act
    const quoted = goQuote(text);

    // Assert
    expect(quoted).toBe(expected);
  });
});
