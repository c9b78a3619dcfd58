import { batchFinished } from '../../../lib/steps/kit/batch-finished';
import type { AllocationOutcome } from '../../../lib/steps/kit/outcomes';

const restarted: AllocationOutcome = { allocationId: 'a1', group: 'web', status: 'restarted' };
const failed: AllocationOutcome = { allocationId: 'a2', group: 'web', status: 'failed', errors: [] };

describe('batchFinished', () => {
  it('counts the batch from its start, numbers it from 1 and counts its failed allocations', () => {
    // Arrange
    const batch = { index: 2, startedAt: 1_000 };

    // Act
    const event = batchFinished({ batch, batches: 4, outcomes: [restarted, failed, restarted], now: 4_500 });

    // Assert
    expect(event).toEqual({
      type: 'batch-finished',
      time: 4_500,
      batchNumber: 3,
      batches: 4,
      restarted: 2,
      failed: 1,
      durationMs: 3_500,
    });
  });

  it('reports the health wait from the health cursor start when the batch was gated', () => {
    // Arrange
    const batch = { index: 0, startedAt: 1_000 };

    // Act
    const event = batchFinished({
      batch,
      batches: 1,
      outcomes: [restarted],
      now: 9_000,
      healthStartedAt: 2_000,
    });

    // Assert
    expect(event.durationMs).toBe(8_000);
    expect(event.healthWaitMs).toBe(7_000);
  });
});
