// Scenario: the words of the status line for the moments of a run, at a fixed time.
import type { RunSnapshot } from '../../../lib/cli/terminal/run-progress';
import { etaMs, statusText } from '../../../lib/cli/terminal/status-text';

const NOW = 1_000_000;
const base: RunSnapshot = { batch: 2, batches: 5, restarted: 3, failed: 1, batchesDone: 1 };

describe('statusText', () => {
  it.each<{ name: string; snap: RunSnapshot; expected: string }>([
    {
      name: 'says it is planning before the plan',
      snap: { batch: 0, batches: 0, restarted: 0, failed: 0, batchesDone: 0 },
      expected: 'planning',
    },
    { name: 'counts batches and allocations', snap: base, expected: 'batch 2 of 5 | 3 restarted, 1 failed' },
    {
      name: 'says how long a health wait has lasted',
      snap: { ...base, waiting: { kind: 'health', since: NOW - 12_000 } },
      expected: 'batch 2 of 5 | 3 restarted, 1 failed | waiting for health 12s',
    },
    {
      name: 'says how long a replacement has been awaited',
      snap: { ...base, waiting: { kind: 'replacement', since: NOW - 90_000 } },
      expected: 'batch 2 of 5 | 3 restarted, 1 failed | waiting for a replacement 1m30s',
    },
    {
      name: 'counts down the wait for the next batch',
      snap: { ...base, waiting: { kind: 'next-batch', since: NOW - 1_000, until: NOW + 4_000 } },
      expected: 'batch 2 of 5 | 3 restarted, 1 failed | next batch in 4s',
    },
    {
      name: 'gives an ETA from the batches so far',
      snap: { ...base, batchesDone: 2, firstBatchAt: NOW - 60_000 },
      expected: 'batch 2 of 5 | 3 restarted, 1 failed | ETA 1m30s',
    },
    {
      name: 'says the window left',
      snap: { ...base, windowEnd: NOW + 41 * 60_000 },
      expected: 'batch 2 of 5 | 3 restarted, 1 failed | window 41m0s left',
    },
    {
      name: 'says the window has ended',
      snap: { ...base, windowEnd: NOW - 1 },
      expected: 'batch 2 of 5 | 3 restarted, 1 failed | window ended',
    },
  ])('$name', ({ snap, expected }) => {
    // Arrange: the snapshot of the row.

    // Act
    const text = statusText(snap, NOW);

    // Assert
    expect(text).toBe(expected);
  });

  it('puts a request Nomad has not answered first', () => {
    // Arrange
    const slow = { request: 'GET http://127.0.0.1:4646/v1/job/web', sentAt: NOW - 10_400 };

    // Act
    const text = statusText(base, NOW, slow);

    // Assert
    expect(text).toBe(
      'no answer from Nomad for 10s (GET http://127.0.0.1:4646/v1/job/web) | batch 2 of 5 | 3 restarted, 1 failed',
    );
  });
});

describe('etaMs', () => {
  it('has no ETA before the first batch is done', () => {
    // Arrange
    const snap: RunSnapshot = { ...base, batchesDone: 0, firstBatchAt: NOW - 5_000 };

    // Act
    const eta = etaMs(snap, NOW);

    // Assert
    expect(eta).toBeUndefined();
  });
});
