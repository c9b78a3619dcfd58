import type { FleetJobItem } from '../../lib/fleet/items';
import { jobEndOf } from '../../lib/fleet/job-end';
import { type FleetFacts, MAX_LISTED_PROBLEMS, summarizeFleet } from '../../lib/fleet/summary';
import { asEntries, failed, item, lambdaCause, RUN_ID, runSummary, succeeded } from './helpers/map-results';

const START = Date.UTC(2026, 11, 7, 2, 0, 0);
const REPORT = `fleets/${RUN_ID}/report.json`;
const TIMING = 'Started 2026-12-07T02:00:00.000Z, finished 2026-12-07T02:02:05.000Z, took 2m5s';

/** Facts of a fleet run over `items`, the ends read from `entries`. */
function facts(items: FleetJobItem[], entries: object[], extra: Partial<FleetFacts> = {}): FleetFacts {
  return {
    runId: RUN_ID,
    items,
    skipped: [],
    ends: asEntries(entries).map(jobEndOf),
    windowEnded: false,
    dryRun: false,
    scheduled: false,
    maxFailedJobs: 1,
    startedAt: START,
    finishedAt: START + 125_000,
    reportKey: REPORT,
    ...extra,
  };
}

const [web, api, db] = [
  item('payments', 'web', 1, 3),
  item('payments', 'api', 2, 3),
  item('shop', 'db', 3, 3),
] as const;
const locked = lambdaCause(
  'JobLockedError',
  'Job "api" in namespace "payments" is already being restarted by run "alice-laptop" pid 4242',
);

describe('fleet summary', () => {
  describe('summarizeFleet', () => {
    it('finishes without errors when every job restarted or was skipped for its kind', () => {
      // Arrange
      const input = facts(
        [web, api],
        [succeeded(web, runSummary('succeeded')), succeeded(api, runSummary('succeeded'))],
        {
          skipped: [
            { namespace: 'batch', job: 'report', reason: { kind: 'sysbatch' } },
            {
              namespace: 'batch',
              job: 'nightly/periodic-1700000000',
              reason: { kind: 'child', parentId: 'nightly' },
            },
          ],
        },
      );

      // Act
      const { summary } = summarizeFleet(input);

      // Assert
      expect(summary).toMatchObject({
        outcome: 'finished',
        jobs: 4,
        restarted: 2,
        failed: 0,
        skipped: 2,
        allocations: 8,
      });
      expect(summary.lines).toEqual([
        'Fleet restart finished: 2 jobs restarted, 0 failed, 2 skipped',
        '  batch/report: skipped: sysbatch jobs are not restarted',
        '  batch/nightly/periodic-1700000000: skipped: dispatched or periodic child of "nightly" (finite batch work)',
        TIMING,
      ]);
      expect(summary.text).toBe(summary.lines.join('\n'));
      expect(summary.duration).toBe('2m5s');
    });

    it('ends with errors on a failed job, and names the jobs the failure budget left', () => {
      // Arrange
      const input = facts(
        [web, api, db],
        [failed(web, 'RestartFailed', 'Nomad is down'), failed(api, 'RestartFailed', 'again')],
        {
          mapError: {
            Error: 'States.ExceedToleratedFailureThreshold',
            Cause: 'The tolerated failure threshold was exceeded',
          },
        },
      );

      // Act
      const { summary } = summarizeFleet(input);

      // Assert
      expect(summary.outcome).toBe('finished-with-errors');
      expect(summary.lines).toEqual([
        'Fleet restart finished with errors: 0 jobs restarted, 2 failed, 1 skipped',
        '  payments/web: failed: RestartFailed: Nomad is down',
        '  payments/api: failed: RestartFailed: again',
        '  shop/db: not reached: the failure budget (-max-failed-jobs 1) ran out',
        TIMING,
      ]);
    });

    it.each([
      {
        name: 'at a terminal',
        scheduled: false,
        outcome: 'finished-with-errors',
        headline: 'Fleet restart finished with errors',
      },
      {
        name: 'in a scheduled run',
        scheduled: true,
        outcome: 'finished',
        headline: 'Fleet restart finished',
      },
    ])(
      'counts a locked job as skipped, an error only outside a schedule ($name)',
      ({ scheduled, outcome, headline }) => {
        // Arrange
        const input = facts(
          [web, api],
          [succeeded(web, runSummary('succeeded')), failed(api, 'JobLocked', locked)],
          { scheduled },
        );

        // Act
        const { summary } = summarizeFleet(input);

        // Assert
        expect(summary.outcome).toBe(outcome);
        expect(summary.lines).toEqual([
          `${headline}: 1 jobs restarted, 0 failed, 1 skipped`,
          '  payments/api: locked by run "alice-laptop" pid 4242',
          TIMING,
        ]);
      },
    );

    it('counts jobs never started as not reached, by the window or a stop', () => {
      // Arrange
      const byWindow = facts([web, api], [succeeded(web, runSummary('succeeded'))], {
        windowEnded: true,
        scheduled: true,
      });
      const stopped = facts([web, api], [succeeded(web, runSummary('succeeded'))], {
        mapError: { Error: 'States.Aborted', Cause: '' },
      });

      // Act
      const window = summarizeFleet(byWindow).summary;
      const stop = summarizeFleet(stopped).summary;

      // Assert
      expect(window.outcome).toBe('finished-with-errors');
      expect(window.lines[1]).toBe('  payments/api: not reached: the maintenance window ended');
      expect(stop.lines[1]).toBe('  payments/api: not reached: the fleet run was stopped');
    });

    it('lists at most the cap in the output, and every job in the report', () => {
      // Arrange
      const many = Array.from({ length: 5000 }, (_, i) =>
        item(`ns-${i % 7}`, `job-${'x'.repeat(60)}-${i}`, i + 1, 5000),
      );
      const cause = `${'A very long Nomad error. '.repeat(40)}`;
      const input = facts(
        many,
        many.map((it) => failed(it, 'RestartFailed', cause)),
      );

      // Act
      const { summary, report } = summarizeFleet(input);

      // Assert
      expect(summary.failed).toBe(5000);
      expect(summary.problems).toHaveLength(MAX_LISTED_PROBLEMS);
      expect(summary.omittedProblems).toBe(5000 - MAX_LISTED_PROBLEMS);
      expect(summary.lines.at(-2)).toBe(
        `  ... and ${5000 - MAX_LISTED_PROBLEMS} more jobs in the report "${REPORT}"`,
      );
      expect(report.jobs).toHaveLength(5000);
      expect(Buffer.byteLength(JSON.stringify(summary))).toBeLessThan(64 * 1024);
    });

    it('says what a dry run would restart, and lists only the skipped jobs', () => {
      // Arrange
      const input = facts([web, api], [], {
        dryRun: true,
        skipped: [{ namespace: 'batch', job: 'report', reason: { kind: 'sysbatch' } }],
      });

      // Act
      const { summary, report } = summarizeFleet(input);

      // Assert
      expect(summary.outcome).toBe('finished');
      expect(summary.lines).toEqual([
        'Fleet dry run: would restart 8 allocations of 2 jobs, 1 skipped; nothing was changed',
        '  batch/report: skipped: sysbatch jobs are not restarted',
        TIMING,
      ]);
      expect(report.jobs.map((j) => j.status)).toEqual(['planned', 'planned', 'skipped']);
    });

    it('keeps the child execution and the allocations of each job in the report', () => {
      // Act
      const { report } = summarizeFleet(facts([web], [succeeded(web, runSummary('succeeded'))]));

      // Assert
      expect(report.jobs).toEqual([
        {
          namespace: 'payments',
          job: 'web',
          status: 'restarted',
          allocations: 4,
          executionArn: expect.stringContaining(':execution:NomadRestart:'),
        },
      ]);
    });
  });
});
