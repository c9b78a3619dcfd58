import fc from 'fast-check';
import { formatGoDuration, parseGoDuration } from '../../lib/go/duration';
import { GoDurationError } from '../../lib/go/errors';

const S = 1e9;

describe('duration', () => {
  describe('parseGoDuration', () => {
    // Cases from Go's time_test.go parseDurationTests.
    it.each([
      { text: '0', ns: 0 },
      { text: '5s', ns: 5 * S },
      { text: '30s', ns: 30 * S },
      { text: '1478s', ns: 1478 * S },
      { text: '-5s', ns: -5 * S },
      { text: '+5s', ns: 5 * S },
      { text: '-0', ns: 0 },
      { text: '+0', ns: 0 },
      { text: '5.0s', ns: 5 * S },
      { text: '5.6s', ns: 5.6 * S },
      { text: '5.s', ns: 5 * S },
      { text: '.5s', ns: 0.5 * S },
      { text: '1.004s', ns: 1.004 * S },
      { text: '100.00100s', ns: 100001000000 },
      { text: '10ns', ns: 10 },
      { text: '11us', ns: 11000 },
      { text: '12\u00b5s', ns: 12000 },
      { text: '12\u03bcs', ns: 12000 },
      { text: '13ms', ns: 13e6 },
      { text: '15m', ns: 15 * 60 * S },
      { text: '16h', ns: 16 * 3600 * S },
      { text: '3h30m', ns: 3.5 * 3600 * S },
      { text: '10.5s4m', ns: 4 * 60 * S + 10.5 * S },
      { text: '-2m3.4s', ns: -(2 * 60 * S + 3.4 * S) },
      { text: '1h2m3s4ms5us6ns', ns: 3723004005006 },
      { text: '39h9m14.425s', ns: 140954425000000 },
      { text: '52763797000ns', ns: 52763797000 },
      { text: '0.3333333333333333333h', ns: 20 * 60 * S },
      { text: '9007199254740992ns', ns: 2 ** 53 },
    ])('parses $text', ({ text, ns }) => {
      // Arrange / Act
      const parsed = parseGoDuration(text);

      // Assert
      expect(parsed).toBe(ns);
    });

    it.each([
      { text: '', message: 'time: invalid duration ""' },
      { text: '3', message: 'time: missing unit in duration "3"' },
      { text: '10', message: 'time: missing unit in duration "10"' },
      { text: '-', message: 'time: invalid duration "-"' },
      { text: 's', message: 'time: invalid duration "s"' },
      { text: '.', message: 'time: invalid duration "."' },
      { text: '-.', message: 'time: invalid duration "-."' },
      { text: '.s', message: 'time: invalid duration ".s"' },
      { text: '+.s', message: 'time: invalid duration "+.s"' },
      { text: 'x', message: 'time: invalid duration "x"' },
      { text: '1d', message: 'time: unknown unit "d" in duration "1d"' },
      { text: '1S', message: 'time: unknown unit "S" in duration "1S"' },
      { text: '10 s', message: 'time: unknown unit " s" in duration "10 s"' },
      { text: '1\u00e9', message: 'time: unknown unit "\\xc3\\xa9" in duration "1\\xc3\\xa9"' },
      { text: '3000000h', message: 'time: invalid duration "3000000h"' },
      { text: '9223372036854775808ns', message: 'time: invalid duration "9223372036854775808ns"' },
      { text: '-9223372036854775809ns', message: 'time: invalid duration "-9223372036854775809ns"' },
    ])('fails on "$text" with Go\'s message', ({ text, message }) => {
      // Arrange / Act
      const act = () => parseGoDuration(text);

      // Assert
      expect(act).toThrow(GoDurationError);
      expect(act).toThrow(new GoDurationError(message));
    });

    it('accepts the int64 extremes', () => {
      // Arrange / Act / Assert
      expect(parseGoDuration('-9223372036854775808ns')).toBe(-(2 ** 63));
      expect(parseGoDuration('9223372036854775807ns')).toBe(2 ** 63 - 1);
    });
  });

  describe('formatGoDuration', () => {
    // Cases from Go's time_test.go durationTests plus the examples of Nomad's
    // `TestJobRestartCommand_parseAndValidate`.
    it.each([
      { ns: 0, text: '0s' },
      { ns: 1, text: '1ns' },
      { ns: 1100, text: '1.1\u00b5s' },
      { ns: 1500, text: '1.5\u00b5s' },
      { ns: 2200000, text: '2.2ms' },
      { ns: 500e6, text: '500ms' },
      { ns: 1.5 * S, text: '1.5s' },
      { ns: 3 * S, text: '3s' },
      { ns: 3.3 * S, text: '3.3s' },
      { ns: 60 * S, text: '1m0s' },
      { ns: 90 * S, text: '1m30s' },
      { ns: 4 * 60 * S + 5 * S, text: '4m5s' },
      { ns: 4 * 60 * S + 5.001 * S, text: '4m5.001s' },
      { ns: 3600 * S, text: '1h0m0s' },
      { ns: 5 * 3600 * S + 6 * 60 * S + 7.001 * S, text: '5h6m7.001s' },
      { ns: 2 * 3600 * S + 3 * 60 * S + 4.5 * S, text: '2h3m4.5s' },
      { ns: 8 * 60 * S + 1, text: '8m0.000000001s' },
      { ns: -1, text: '-1ns' },
      { ns: -1.5 * S, text: '-1.5s' },
      { ns: -(2 ** 63), text: '-2562047h47m16.854775808s' },
    ])('formats $ns ns as $text', ({ ns, text }) => {
      // Arrange / Act
      const formatted = formatGoDuration(ns);

      // Assert
      expect(formatted).toBe(text);
    });

    it('round-trips through parseGoDuration for any safe integer', () => {
      // Arrange
      const safe = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });

      // Act / Assert
      fc.assert(
        fc.property(safe, (ns) => {
          expect(parseGoDuration(formatGoDuration(ns))).toBe(ns);
        }),
      );
    });

    it('parses the formatted text of any composed duration back to the same value', () => {
      // Arrange
      const parts = fc.record({
        h: fc.integer({ min: 0, max: 1000 }),
        m: fc.integer({ min: 0, max: 59 }),
        s: fc.integer({ min: 0, max: 59 }),
        ms: fc.integer({ min: 0, max: 999 }),
      });

      // Act / Assert
      fc.assert(
        fc.property(parts, ({ h, m, s, ms }) => {
          const text = `${h}h${m}m${s}s${ms}ms`;
          expect(formatGoDuration(parseGoDuration(text))).toBe(
            formatGoDuration(((h * 60 + m) * 60 + s) * S + ms * 1e6),
          );
        }),
      );
    });
  });
});
