/**
 * A question the workflow worded, read back as the terminal, chat and the webhook read it, and
 * an answer turned into the reply the workflow reads back into the same answer.
 */
import { answerText, toQuestion } from '../../lib/restart/prompt-question';
import type { Answer } from '../../lib/restart/questions';

describe('prompt questions', () => {
  describe('toQuestion', () => {
    it.each([
      {
        name: 'a proceed question after a good batch',
        pending: { kind: 'proceed', prompt: 'Proceed with the next batch? [Y/n]' },
        expected: {
          kind: 'proceed',
          lines: ['Proceed with the next batch?'],
          options: 'Y/n',
          noErrors: true,
          batchWaitAsk: false,
        },
      },
      {
        name: 'a two-line question with a wait duration',
        pending: {
          kind: 'proceed',
          prompt: `The errors above are likely to happen again.\n${' '.repeat(31)}Ignore them anyway and proceed with the next batch? [y/N/<wait duration>]`,
        },
        expected: {
          kind: 'proceed',
          lines: [
            'The errors above are likely to happen again.',
            'Ignore them anyway and proceed with the next batch?',
          ],
          options: 'y/N/<wait duration>',
          noErrors: false,
          batchWaitAsk: true,
        },
      },
      {
        name: 'the multi-region question',
        pending: {
          kind: 'multiregion',
          prompt: 'Are you sure you want to restart multi-region job "example" in a single region? [y/N]',
        },
        expected: {
          kind: 'multi-region',
          lines: ['Are you sure you want to restart multi-region job "example" in a single region?'],
          options: 'y/N',
          noErrors: true,
          batchWaitAsk: false,
        },
      },
    ])('rebuilds $name', ({ pending, expected }) => {
      // Arrange (the rows)

      // Act
      const question = toQuestion(pending);

      // Assert
      expect(question).toEqual({ ...expected, defaultOnInterrupt: { kind: 'no' } });
    });
  });

  describe('answerText', () => {
    it.each<{ answer: Answer; expected: string }>([
      { answer: { kind: 'yes' }, expected: 'yes' },
      { answer: { kind: 'no' }, expected: 'no' },
      { answer: { kind: 'wait', ns: 90e9 }, expected: '1m30s' },
      { answer: { kind: 'wait', ns: 1500 }, expected: '1.5µs' },
      { answer: { kind: 'invalid', text: 'maybe' }, expected: 'maybe' },
    ])('replies $expected for $answer.kind', ({ answer, expected }) => {
      // Arrange (the rows)

      // Act
      const text = answerText(answer);

      // Assert
      expect(text).toBe(expected);
    });
  });
});
