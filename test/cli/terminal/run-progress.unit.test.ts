// Scenario: what the terminal knows of a run, read from the states' outputs and the progress
// events the local engine reports, as a three-batch run reports them.
import { RunProgress } from '../../../lib/cli/terminal/run-progress';

/** A state's output with the plan of three batches and the counters after `done` batches. */
function stateAfter(done: number, counters: { restarted: number; failed: number }) {
  return {
    options: { windowEnd: 9_000_000 },
    plan: { jobId: 'web', namespace: 'prod', batchCount: 3 },
    progress: { nextBatch: done, ...counters },
  };
}

describe('RunProgress', () => {
  describe('stateExited', () => {
    it('knows nothing of the job before the plan', () => {
      // Arrange
      const progress = new RunProgress();

      // Act
      progress.stateExited({ options: {}, plan: null, progress: null });

      // Assert
      expect(progress.snapshot()).toEqual({ batch: 0, batches: 0, restarted: 0, failed: 0, batchesDone: 0 });
      expect(progress.eventContext()).toBeUndefined();
    });

    it('names the job, the batch under way and the totals once planned', () => {
      // Arrange
      const progress = new RunProgress();

      // Act
      progress.stateExited(stateAfter(1, { restarted: 1, failed: 0 }));

      // Assert
      expect(progress.eventContext()).toEqual({
        job: 'web',
        namespace: 'prod',
        batch: 2,
        batches: 3,
        totals: { restarted: 1, failed: 0 },
      });
      expect(progress.snapshot()).toMatchObject({ batchesDone: 1, windowEnd: 9_000_000 });
    });

    it('stays at the last batch once every batch is done', () => {
      // Arrange
      const progress = new RunProgress();

      // Act
      progress.stateExited(stateAfter(3, { restarted: 2, failed: 1 }));

      // Assert
      expect(progress.snapshot()).toMatchObject({ batch: 3, batches: 3, batchesDone: 3, failed: 1 });
    });
  });

  describe('event', () => {
    it('follows a batch from its restart to its health wait and the wait for the next batch', () => {
      // Arrange
      const progress = new RunProgress();
      progress.stateExited(stateAfter(0, { restarted: 0, failed: 0 }));
      const seen: unknown[] = [];

      // Act
      progress.event({
        type: 'allocation-restarting',
        time: 100,
        allocationId: 'a1',
        group: 'g',
        mode: { kind: 'running-tasks' },
      });
      seen.push(progress.snapshot().waiting);
      progress.event({
        type: 'health-waiting',
        time: 200,
        count: 1,
        minHealthyTimeNs: 0,
        healthyDeadlineNs: 1,
      });
      seen.push(progress.snapshot().waiting);
      progress.event({ type: 'waiting', time: 300, waitMs: 2_000 });
      progress.stateExited(stateAfter(1, { restarted: 1, failed: 0 }));
      seen.push(progress.snapshot().waiting);
      progress.event({
        type: 'allocation-restarting',
        time: 2_300,
        allocationId: 'a2',
        group: 'g',
        mode: { kind: 'running-tasks' },
      });
      seen.push(progress.snapshot().waiting);

      // Assert
      expect(seen).toEqual([
        undefined,
        { kind: 'health', since: 200 },
        { kind: 'next-batch', since: 300, until: 2_300 },
        undefined,
      ]);
      expect(progress.snapshot().firstBatchAt).toBe(100);
    });

    it('keeps the first replacement wait of a batch, and ends it when the batch ends', () => {
      // Arrange
      const progress = new RunProgress();
      progress.stateExited(stateAfter(0, { restarted: 0, failed: 0 }));
      const replaced = (time: number) =>
        progress.event({ type: 'allocation-replaced', time, allocationId: 'a', replacementId: 'b' });

      // Act
      replaced(10);
      replaced(20);
      const during = progress.snapshot().waiting;
      progress.stateExited(stateAfter(1, { restarted: 2, failed: 0 }));

      // Assert
      expect(during).toEqual({ kind: 'replacement', since: 10 });
      expect(progress.snapshot().waiting).toBeUndefined();
    });
  });
});
