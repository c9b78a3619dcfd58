import type { FreshnessReport } from '../../lib/restart/events';
import { countSkipped, renderRunSummary, summarizeRun } from '../../lib/restart/run-summary';
import { RUN_START, runFacts } from './helpers/run-facts';

const START = RUN_START;
const facts = runFacts;

describe('run summary', () => {
  describe('countSkipped', () => {
    it('counts each reason under its readable key, and only the reasons that occurred', () => {
      // Act
      const counts = countSkipped([
        { kind: 'status', desiredStatus: 'stop', clientStatus: 'complete' },
        { kind: 'replaced', nextAllocationId: 'b' },
        { kind: 'status', desiredStatus: 'run', clientStatus: 'pending' },
      ]);

      // Assert
      expect(counts).toEqual({ notRunning: 2, alreadyReplaced: 1 });
    });
  });

  describe('summarizeRun', () => {
    it('splits the counts by mode, and times the run to the second', () => {
      // Act
      const summary = summarizeRun(facts({ reschedule: true, restarted: 7, failed: 1 }));

      // Assert
      expect(summary).toMatchObject({
        restarted: 7,
        failed: 1,
        allocations: {
          mode: 'reschedule',
          planned: 10,
          restarted: 0,
          rescheduled: 7,
          failed: 1,
          notReached: 2,
        },
        startedAt: '2026-11-29T02:00:00.000Z',
        finishedAt: '2026-11-29T02:12:34.400Z',
        duration: '12m34s',
      });
      expect(summary.text).toBe(summary.lines.join('\n'));
    });

    it("keeps Nomad's error list, sample and all", () => {
      // Act
      const summary = summarizeRun(
        facts({
          outcome: 'failed',
          restarted: 9,
          failed: 1,
          errors: ['Error restarting allocation "a"'],
          omittedErrors: 2,
        }),
      );

      // Assert
      expect(summary.errorText).toBe(
        [
          '3 errors occurred while restarting job:',
          '* Error restarting allocation "a"',
          "* ... and 2 more errors in the run's record",
        ].join('\n'),
      );
      expect(summary.lines.slice(-3)).toEqual(summary.errorText.split('\n'));
    });
  });

  describe('renderRunSummary', () => {
    it.each([
      { outcome: 'succeeded', over: {}, headline: 'succeeded' },
      {
        outcome: 'succeeded',
        over: { planned: 0, restarted: 0 },
        headline: 'succeeded, no allocations to restart',
      },
      { outcome: 'canceled', over: { restarted: 4 }, headline: 'canceled' },
      { outcome: 'failed', over: { failed: 1, restarted: 9 }, headline: 'finished with errors' },
      {
        outcome: 'unrecoverable',
        over: { failed: 1, restarted: 0 },
        headline: 'stopped on an unrecoverable error',
      },
      {
        outcome: 'stopped-at-window-end',
        over: { windowEnd: START + 7_200_000, windowReached: true, restarted: 4 },
        headline: 'stopped at the end of its maintenance window (2026-11-29T04:00:00.000Z)',
      },
      {
        outcome: 'skipped-job-locked',
        over: { lockedBy: 'arn:aws:states:eu-central-1:1:execution:m:x', restarted: 0 },
        headline:
          'skipped, the job is already being restarted by execution "arn:aws:states:eu-central-1:1:execution:m:x"',
      },
    ] as const)('says $outcome in its first line: $headline', ({ outcome, over, headline }) => {
      // Act
      const [first] = summarizeRun(facts({ outcome, ...over })).lines;

      // Assert
      expect(first).toBe(`Restart of job "example" in namespace "default": ${headline}`);
    });

    it('renders every part a run can have, in reading order', () => {
      // Arrange
      const summary = summarizeRun(
        facts({
          outcome: 'stopped-at-window-end',
          restarted: 3,
          failed: 1,
          skipped: { alreadyReplaced: 1, notRunning: 2 },
          windowEnd: START + 7_200_000,
          windowReached: true,
          scheduleName: 'weekly-example',
          scheduledTime: START,
          errors: ['Error restarting allocation "a": boom'],
        }),
      );

      // Act
      const lines = renderRunSummary(summary);

      // Assert
      expect(lines).toEqual([
        'Restart of job "example" in namespace "default": stopped at the end of its maintenance window (2026-11-29T04:00:00.000Z)',
        'Allocations: 10 planned, 3 restarted, 1 failed, 6 not reached',
        'Skipped: 2 not running, 1 already replaced',
        'Maintenance window: ended 2026-11-29T04:00:00.000Z, 4 of 10 allocations done, 6 left',
        'Started 2026-11-29T02:00:00.000Z, finished 2026-11-29T02:12:34.400Z, took 12m34s',
        'Started by schedule "weekly-example" for 2026-11-29T02:00:00.000Z',
        '1 error occurred while restarting job:',
        '* Error restarting allocation "a": boom',
      ]);
    });

    it('names the fleet run that started it, in the data and in its lines', () => {
      // Act
      const summary = summarizeRun(facts({ fleet: { runId: 'fleet-weekly', index: 2, of: 5 } }));

      // Assert
      expect(summary.fleet).toEqual({ runId: 'fleet-weekly', index: 2, of: 5 });
      expect(summary.lines).toContain('Started by fleet run "fleet-weekly" (job 2 of 5)');
    });

    it('carries the freshness report with its time in RFC 3339, and says every allocation is fresh', () => {
      // Arrange
      const freshness: FreshnessReport = {
        namespace: 'default',
        jobId: 'example',
        startedBefore: START - 3_600_000,
        checked: 12,
        restarted: 10,
        alreadyFresh: 2,
        stale: [],
      };

      // Act
      const summary = summarizeRun(facts({ freshness }));

      // Assert
      expect(summary.freshness).toEqual({
        startedBefore: '2026-11-29T01:00:00.000Z',
        checked: 12,
        restarted: 10,
        alreadyFresh: 2,
        stale: [],
      });
      expect(summary.lines.slice(2, 4)).toEqual([
        'Freshness: 12 allocations checked, 10 restarted, 2 already fresh, 0 still stale',
        'Every allocation in scope started after 2026-11-29T01:00:00.000Z',
      ]);
    });

    it('names the first stale allocations in full and counts the others', () => {
      // Arrange
      const stale = Array.from({ length: 12 }, (_, i) => ({
        allocationId: `alloc-${i}`,
        why: 'not-reached' as const,
      }));
      const freshness: FreshnessReport = {
        namespace: 'default',
        jobId: 'example',
        startedBefore: START,
        checked: 20,
        restarted: 8,
        alreadyFresh: 0,
        stale,
        staleOmitted: 3,
      };

      // Act
      const lines = summarizeRun(facts({ freshness })).lines;

      // Assert
      expect(lines).toContain(
        'Freshness: 20 allocations checked, 8 restarted, 0 already fresh, 15 still stale',
      );
      expect(lines).toContain(
        'Allocation "alloc-0" started before the time given: the run ended before reaching it',
      );
      expect(lines).toContain('... and 5 more stale allocations');
      expect(lines.some((line) => line.includes('alloc-10'))).toBe(false);
      expect(lines.some((line) => line.startsWith('Every allocation'))).toBe(false);
    });

    it('has no freshness without startedBefore', () => {
      // Act
      const summary = summarizeRun(facts());

      // Assert
      expect(summary.freshness).toBeNull();
      expect(summary.lines.some((line) => line.startsWith('Freshness'))).toBe(false);
    });

    it('has no fleet when none started it', () => {
      // Act
      const summary = summarizeRun(facts());

      // Assert
      expect(summary.fleet).toBeNull();
      expect(summary.lines.some((line) => line.includes('fleet'))).toBe(false);
    });

    it('says when a window did not end the run, and only the end time when the start is unknown', () => {
      // Act
      const lines = summarizeRun(facts({ windowEnd: START + 7_200_000, startedAt: null })).lines;

      // Assert
      expect(lines.slice(2)).toEqual([
        'Maintenance window: until 2026-11-29T04:00:00.000Z',
        'Finished 2026-11-29T02:12:34.400Z',
      ]);
    });

    it.each([
      { outcome: 'aborted', headline: 'aborted, the execution was stopped' },
      { outcome: 'timed-out', headline: 'timed out, the execution ran out of time' },
      { outcome: 'error', headline: 'stopped by an error' },
    ] as const)('says how a run that made no summary ended ($outcome), for its notification', (c) => {
      // Act
      const lines = summarizeRun(facts({ outcome: c.outcome, restarted: 4 })).lines;

      // Assert
      expect(lines.slice(0, 2)).toEqual([
        `Restart of job "example" in namespace "default": ${c.headline}`,
        'Allocations: 10 planned, 4 restarted, 0 failed, 6 not reached',
      ]);
    });
  });
});
