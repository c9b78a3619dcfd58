/**
 * The error sample a workflow state carries: the first errors that fit the byte budget, the
 * count of the rest, and Nomad's error list wording with that count (never without it).
 */
import { sampleErrors } from '../../lib/restart/error-sample';
import { ERROR_LIST_HEADER, formatErrorList } from '../../lib/restart/text';

describe('sampleErrors', () => {
  it('keeps every error that fits the budget', () => {
    // Act
    const sample = sampleErrors(['a', 'b'], 100);

    // Assert
    expect(sample).toEqual({ errors: ['a', 'b'], omitted: 0 });
  });

  it('keeps the first errors that fit and counts the rest', () => {
    // Arrange: each message costs its bytes plus 4 ("* " and a newline, with room).
    const messages = Array.from({ length: 10 }, (_, i) => `error ${i} ${'x'.repeat(90)}`);

    // Act
    const sample = sampleErrors(messages, 350);

    // Assert
    expect(sample.errors).toEqual(messages.slice(0, 3));
    expect(sample.omitted).toBe(7);
  });

  it('counts multi-byte characters as the bytes a state holds', () => {
    // Act
    const sample = sampleErrors(['é'.repeat(10), 'é'.repeat(10)], 30);

    // Assert
    expect(sample).toEqual({ errors: ['é'.repeat(10)], omitted: 1 });
  });
});

describe('formatErrorList with errors left out', () => {
  it('counts every error in the header and says how many are not listed', () => {
    // Act
    const text = formatErrorList(['first', 'second'], 0, 3);

    // Assert
    expect(text).toBe(
      "5 errors occurred while restarting job:\n* first\n* second\n* ... and 3 more errors in the run's record",
    );
  });

  it('is Nomad’s list exactly when nothing is left out', () => {
    // Act
    const text = formatErrorList(['only'], 0);

    // Assert
    expect(text).toBe('1 error occurred while restarting job:\n* only');
  });
});

describe('ERROR_LIST_HEADER', () => {
  it.each([
    { errors: ['one'], omitted: 0 },
    { errors: ['one', 'two'], omitted: 0 },
    { errors: ['one'], omitted: 4 },
  ])(
    'matches the first line of the list formatErrorList writes ($errors.length listed, $omitted left out), and none after it',
    ({ errors, omitted }) => {
      // Act
      const lines = formatErrorList(errors, 0, omitted).split('\n');

      // Assert
      expect(lines.map((line) => ERROR_LIST_HEADER.test(line))).toEqual(lines.map((_, i) => i === 0));
    },
  );
});
