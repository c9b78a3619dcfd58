import { questionWaited } from '../../../lib/steps/decide/question-waited';
import type { PendingQuestion } from '../../../lib/workflow/payloads';

const proceed: PendingQuestion = { kind: 'proceed', prompt: 'Proceed? [Y/n]', summary: '', askedAt: 10_000 };

describe('questionWaited', () => {
  it('reports the wait from when the question was asked to the answer', () => {
    // Act
    const event = questionWaited(proceed, { answer: 'n', answeredBy: 'ann' }, 'no', 25_000);

    // Assert
    expect(event).toEqual({
      type: 'question-waited',
      time: 25_000,
      kind: 'proceed',
      waitedMs: 15_000,
      answer: 'no',
    });
  });

  it('reports a timeout when the answer is the Catch failure', () => {
    // Act
    const event = questionWaited(proceed, { Error: 'States.Timeout', Cause: '' }, 'no', 70_000);

    // Assert
    expect(event).toMatchObject({ answer: 'timeout', waitedMs: 60_000 });
  });

  it('reports nothing for a question parked by a state that did not say when it asked', () => {
    // Arrange
    const { askedAt: _, ...older } = proceed;

    // Act / Assert
    expect(questionWaited(older, { answer: 'y' }, 'yes', 70_000)).toBeUndefined();
  });
});
