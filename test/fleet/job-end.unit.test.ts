import { failureMessage, jobEndOf, jobFinishedEvent } from '../../lib/fleet/job-end';
import { asEntries, childArn, failed, item, lambdaCause, runSummary, succeeded } from './helpers/map-results';

const web = item('payments', 'web', 1, 3);
const one = (entry: object) => jobEndOf(asEntries([entry])[0] as never);

describe('job end', () => {
  describe('jobEndOf', () => {
    it('reads a succeeded child summary as restarted, with the child execution', () => {
      // Act
      const end = one(succeeded(web, runSummary('succeeded')));

      // Assert
      expect(end).toEqual({
        namespace: 'payments',
        job: 'web',
        outcome: 'restarted',
        executionArn: childArn(web),
      });
    });

    it('reads a succeeded child whose freshness report left allocations stale as failed, with their count', () => {
      // Arrange: Nomad took every restart, but one task never started again.
      const freshness = {
        startedBefore: '2026-12-07T10:00:00Z',
        checked: 3,
        restarted: 2,
        alreadyFresh: 0,
        stale: [{ allocationId: 'a1', why: 'failed' }],
        staleOmitted: 1,
      };

      // Act
      const end = one(succeeded(web, runSummary('succeeded', { freshness })));
      const allFresh = one(
        succeeded(web, runSummary('succeeded', { freshness: { ...freshness, stale: [], staleOmitted: 0 } })),
      );

      // Assert
      expect(end).toMatchObject({
        outcome: 'failed',
        problem: {
          kind: 'failed',
          error: 'AllocationsStillStale',
          message: '2 allocations still started before 2026-12-07T10:00:00Z',
        },
      });
      expect(allFresh.outcome).toBe('restarted');
    });

    it('reads a scheduled child that found its job locked as locked, naming the holder', () => {
      // Act
      const end = one(succeeded(web, runSummary('skipped-job-locked', { lockedBy: 'nightly-42' })));

      // Assert
      expect(end.outcome).toBe('locked');
      expect(end.problem).toEqual({ kind: 'locked', holder: 'execution "nightly-42"' });
    });

    it('reads a child failed on the lock as locked, with the holder in the lock step words', () => {
      // Arrange
      const cause = lambdaCause(
        'JobLockedError',
        'Job "web" in namespace "payments" is already being restarted by run "alice-laptop" pid 4242',
      );

      // Act
      const end = one(failed(web, 'JobLocked', cause));

      // Assert
      expect(end).toMatchObject({
        outcome: 'locked',
        problem: { kind: 'locked', holder: 'run "alice-laptop" pid 4242' },
      });
    });

    it("reads a locked item that succeeded with the child's cause (the lock step's error) as its output", () => {
      // Arrange: "Read lock holder" puts the JobLocked Fail state's cause, Lambda's error JSON, there.
      const cause = lambdaCause(
        'JobLockedError',
        'Job "web" in namespace "payments" is already being restarted by execution "other-run"',
      );

      // Act
      const end = one(succeeded(web, cause));

      // Assert
      expect(end).toMatchObject({
        outcome: 'locked',
        problem: { kind: 'locked', holder: 'execution "other-run"' },
        executionArn: childArn(web),
      });
    });

    it('reads a job whose start was refused (a cause that is no execution) as failed with AWS words', () => {
      // Arrange
      const entry = { ...failed(web, 'x', ''), Cause: 'Execution limit exceeded' };

      // Act
      const end = one(entry);

      // Assert
      expect(end.problem).toEqual({
        kind: 'failed',
        error: 'JobFailed',
        message: 'JobFailed: Execution limit exceeded',
      });
    });

    it("reads a failed child's error and the first of Nomad's errors from its summary", () => {
      // Arrange
      const text = [
        'Restart of job "web" in namespace "payments": finished with errors',
        '2 errors occurred while restarting job:',
        '* Error restarting allocation "a1b2c3d4": permission denied',
        '* Error restarting allocation "e5f6a7b8": permission denied',
      ].join('\n');

      // Act
      const end = one(failed(web, 'RestartFailed', text));

      // Assert
      expect(end).toMatchObject({
        outcome: 'failed',
        executionArn: childArn(web),
        problem: {
          kind: 'failed',
          error: 'RestartFailed',
          message: 'RestartFailed: Error restarting allocation "a1b2c3d4": permission denied (and 1 more)',
        },
      });
    });

    it('reads an aborted item as canceled and a timed-out one as failed', () => {
      // Act
      const aborted = one(failed(web, 'States.Aborted', '', 'ABORTED'));
      const timedOut = one(failed(web, 'States.Timeout', '', 'TIMED_OUT'));

      // Assert
      expect(aborted).toMatchObject({ outcome: 'canceled', problem: { kind: 'canceled' } });
      expect(timedOut).toMatchObject({
        outcome: 'failed',
        problem: { kind: 'failed', error: 'States.Timeout' },
      });
    });

    it('tells a window end with nothing done (not reached) from one midway', () => {
      // Arrange
      const none = { planned: 4, restarted: 0, rescheduled: 0, failed: 0 };
      const some = { planned: 4, restarted: 2, rescheduled: 0, failed: 1 };

      // Act
      const notReached = one(succeeded(web, runSummary('stopped-at-window-end', { allocations: none })));
      const midway = one(succeeded(web, runSummary('stopped-at-window-end', { allocations: some })));

      // Assert
      expect(notReached.problem).toEqual({ kind: 'not-reached', why: 'window-ended' });
      expect(midway.problem).toEqual({ kind: 'window-ended-midway', done: 3, of: 4 });
    });

    it('fails an item whose input names no job, naming the item execution', () => {
      // Arrange
      const entry = { ExecutionArn: 'arn:item', Status: 'SUCCEEDED', Input: '{}', Output: '{}' };

      // Act / Assert
      expect(() => one(entry)).toThrow('item execution "arn:item": its input names no job');
    });
  });

  describe('failureMessage', () => {
    it('keeps the first line of a cause without an error list, and the message of a Lambda error', () => {
      // Act / Assert
      expect(failureMessage('Nomad said no\nmore')).toBe('Nomad said no');
      expect(failureMessage(lambdaCause('StepError', 'connection refused'))).toBe('connection refused');
    });

    it('shortens a long reason to one summary line', () => {
      // Act
      const message = failureMessage('x'.repeat(1000));

      // Assert
      expect(message).toHaveLength(300);
      expect(message.endsWith('...')).toBe(true);
    });
  });

  describe('jobFinishedEvent', () => {
    it("tells a restarted job's end with its execution, a locked one with its holder, a failed one in words", () => {
      // Arrange
      const lockCause = lambdaCause(
        'JobLockedError',
        'Job "web" in namespace "payments" is already being restarted by execution "x"',
      );

      // Act
      const restarted = jobFinishedEvent(one(succeeded(web, runSummary('succeeded'))), 7, {
        maxFailedJobs: 0,
      });
      const locked = jobFinishedEvent(one(failed(web, 'JobLocked', lockCause)), 7, { maxFailedJobs: 0 });
      const failedJob = jobFinishedEvent(one(failed(web, 'StepFailed', 'Nomad is down')), 7, {
        maxFailedJobs: 0,
      });

      // Assert
      expect(restarted).toEqual({
        type: 'job-finished',
        time: 7,
        namespace: 'payments',
        job: 'web',
        outcome: 'restarted',
        executionArn: childArn(web),
      });
      expect(locked).toMatchObject({ outcome: 'locked', reason: 'execution "x"' });
      expect(failedJob).toMatchObject({ outcome: 'failed', reason: 'failed: StepFailed: Nomad is down' });
    });
  });
});
