import { staleRunEnd } from '../../../lib/steps/lock/release-lock-step';

describe('staleRunEnd', () => {
  it.each([
    { status: 'ABORTED', error: null, expected: { outcome: 'aborted', endedAt: 7 } },
    { status: 'TIMED_OUT', error: undefined, expected: { outcome: 'timed-out', endedAt: 7 } },
    {
      status: 'FAILED',
      error: 'States.DataLimitExceeded',
      expected: { outcome: 'error', endedAt: 7, errors: ['States.DataLimitExceeded'] },
    },
    { status: 'FAILED', error: '', expected: { outcome: 'error', endedAt: 7 } },
  ])('ends a run whose execution is $status as $expected.outcome', ({ status, error, expected }) => {
    // Act
    const end = staleRunEnd(status, error, 7);

    // Assert
    expect(end).toEqual(expected);
  });
});
