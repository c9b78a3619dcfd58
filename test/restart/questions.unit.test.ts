import {
  type Answer,
  interpretAnswer,
  interruptQuestion,
  multiRegionQuestion,
  pauseQuestion,
  proceedQuestion,
} from '../../lib/restart/questions';
import { formatTimestamp } from '../../lib/restart/text';

const multi = multiRegionQuestion('example');
const okAsk = proceedQuestion({ outcome: 'ok', batchWaitAsk: true });
const ok = proceedQuestion({ outcome: 'ok', batchWaitAsk: false });
const errAsk = proceedQuestion({ outcome: 'recoverable', batchWaitAsk: true });
const interrupt = interruptQuestion();

describe('questions', () => {
  describe('proceedQuestion', () => {
    it.each([
      {
        outcome: 'ok' as const,
        batchWaitAsk: false,
        lines: ['Proceed with the next batch?'],
        options: 'Y/n',
      },
      {
        outcome: 'ok' as const,
        batchWaitAsk: true,
        lines: ['Proceed with the next batch?'],
        options: 'Y/n/<wait duration>',
      },
      {
        outcome: 'recoverable' as const,
        batchWaitAsk: false,
        lines: ['Ignore the errors above and proceed with the next batch?'],
        options: 'y/N',
      },
      {
        outcome: 'unrecoverable' as const,
        batchWaitAsk: true,
        lines: [
          'The errors above are likely to happen again.',
          'Ignore them anyway and proceed with the next batch?',
        ],
        options: 'y/N/<wait duration>',
      },
    ])('words the $outcome question (ask $batchWaitAsk)', ({ outcome, batchWaitAsk, lines, options }) => {
      // Arrange / Act
      const q = proceedQuestion({ outcome, batchWaitAsk });

      // Assert
      expect(q.lines).toEqual(lines);
      expect(q.options).toBe(options);
    });
  });

  describe('interpretAnswer', () => {
    it.each<[string, ReturnType<typeof proceedQuestion>, string, Answer]>([
      ['multi-region empty', multi, '', { kind: 'no' }],
      ['multi-region Y', multi, ' Y ', { kind: 'yes' }],
      ['multi-region NO', multi, 'NO', { kind: 'no' }],
      ['multi-region other', multi, 'Sure', { kind: 'invalid', text: 'Sure' }],
      ['multi-region duration', multi, '10s', { kind: 'invalid', text: '10s' }],
      ['proceed empty without errors', ok, '\n', { kind: 'yes' }],
      ['proceed empty with errors', errAsk, '', { kind: 'no' }],
      ['proceed Yes', errAsk, 'Yes', { kind: 'yes' }],
      ['proceed n', ok, 'n', { kind: 'no' }],
      ['proceed duration with ask', okAsk, ' 10s ', { kind: 'wait', ns: 10e9 }],
      ['proceed negative duration with ask', okAsk, '-1m', { kind: 'wait', ns: -60e9 }],
      ['proceed duration after errors with ask', errAsk, '1m30s', { kind: 'wait', ns: 90e9 }],
      ['proceed duration in the wrong case', okAsk, '10S', { kind: 'invalid', text: '10S' }],
      ['proceed duration without ask', ok, '10s', { kind: 'invalid', text: '10s' }],
      ['proceed garbage', okAsk, 'xyz', { kind: 'invalid', text: 'xyz' }],
      ['interrupt empty', interrupt, '', { kind: 'no' }],
      ['interrupt y', interrupt, 'y', { kind: 'yes' }],
      ['interrupt other', interrupt, 'maybe', { kind: 'invalid', text: 'maybe' }],
    ])('reads %s', (_name, question, raw, expected) => {
      // Arrange / Act
      const answer = interpretAnswer(question, raw);

      // Assert
      expect(answer).toEqual(expected);
    });
  });

  describe('defaultOnInterrupt', () => {
    it('is no for the multi-region and proceed questions and yes for the interrupt question', () => {
      // Assert
      expect([multi, ok, errAsk, interrupt].map((q) => q.defaultOnInterrupt.kind)).toEqual([
        'no',
        'no',
        'no',
        'yes',
      ]);
    });
  });
  describe('pauseQuestion', () => {
    const at = Date.UTC(2026, 11, 7, 14, 2, 10);
    const pause = pauseQuestion({ verb: 'pause', requestedBy: 'U0AAAAAAA', via: 'slack', at });

    it('names who paused the run and when, and asks to resume with no as the default', () => {
      // Act
      const { lines, options, defaultOnInterrupt } = pause;

      // Assert
      expect(lines).toEqual([
        `Paused by U0AAAAAAA (Slack) at ${formatTimestamp(at)}.`,
        'Resume the restart?',
      ]);
      expect(options).toBe('y/N');
      expect(defaultOnInterrupt).toEqual({ kind: 'no' });
    });

    it.each([
      ['y', 'yes'],
      ['YES', 'yes'],
      ['n', 'no'],
      ['', 'no'],
      ['10s', 'invalid'],
    ])('reads %j as %s (nothing typed is no; no duration is taken)', (reply, kind) => {
      // Act
      const answer = interpretAnswer(pause, reply);

      // Assert
      expect(answer.kind).toBe(kind);
    });
  });
});
