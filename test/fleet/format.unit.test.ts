import type { FleetProgressEvent, JobProgressEvent } from '../../lib/fleet/events';
import { createFleetFormatter } from '../../lib/fleet/format';
import { createFormatter, type OutputLine } from '../../lib/restart/format';
import { proceedQuestion } from '../../lib/restart/questions';

// 2023-02-28T17:40:58-05:00, as the one-job formatter's tests.
const T0 = Date.UTC(2023, 1, 28, 22, 40, 58);
const NY = 'America/New_York';
const TS = '2023-02-28T17:40:58-05:00';

const texts = (lines: OutputLine[]) => lines.map((l) => l.text);
const render = (events: FleetProgressEvent[], maxJobs: number) => {
  const formatter = createFleetFormatter({
    verbose: false,
    color: false,
    timeZone: NY,
    maxJobs,
    maxFailedJobs: 1,
  });
  return events.flatMap((e) => formatter.render(e));
};

const webEvents: JobProgressEvent[] = [
  { type: 'restart-started', time: T0, count: 1, namespace: 'payments', job: 'web' },
  {
    type: 'allocation-restarting',
    time: T0,
    allocationId: '653f983e-8d5c-4c8e-a6a8-0e8e4d1f2a3b',
    group: 'web',
    mode: { kind: 'running-tasks' },
    namespace: 'payments',
    job: 'web',
  },
  { type: 'finished', time: T0, errors: [], canceled: false, namespace: 'payments', job: 'web' },
];

describe('fleet format', () => {
  describe('createFleetFormatter().render', () => {
    it('writes the plan’s consumer lines before its header: variables found, consumers, not inspectable, fresh', () => {
      // Arrange
      const event: FleetProgressEvent = {
        type: 'fleet-planned',
        time: T0,
        jobs: 1,
        allocations: 2,
        namespaces: ['default'],
        consumers: { inspected: 6, consumers: 3 },
        variables: [{ namespace: 'default', path: 'nomad/jobs/shared/db', found: 1 }],
        skipped: [
          {
            namespace: 'default',
            job: 'legacy',
            reason: {
              kind: 'not-inspectable',
              templates: ['template "local/app.env" read from a file ("local/app.tpl")'],
            },
          },
          {
            namespace: 'payments',
            job: 'api',
            reason: { kind: 'fresh', startedBefore: T0 - 60_000, allocations: 2 },
          },
        ],
      };

      // Act
      const lines = texts(render([event], 1));

      // Assert
      expect(lines).toEqual([
        `==> ${TS}: Found 1 variables under "nomad/jobs/shared/db" in namespace "default"`,
        `==> ${TS}: 3 of 6 jobs read the paths given (from their specifications)`,
        `==> ${TS}: Job "legacy" in namespace "default" is not inspectable: template "local/app.env" read from a file ("local/app.tpl"); skipped (-filter selects it)`,
        'All 2 allocations of job "api" in namespace "payments" started after 2023-02-28T17:39:58-05:00',
        `==> ${TS}: Restarting 2 allocations of 1 jobs`,
      ]);
    });

    it("writes the fleet's header with Nomad's plain counts", () => {
      // Act
      const lines = render(
        [{ type: 'fleet-planned', time: T0, jobs: 1, allocations: 1, skipped: [], namespaces: [] }],
        1,
      );

      // Assert
      expect(texts(lines)).toEqual([`==> ${TS}: Restarting 1 allocations of 1 jobs`]);
    });

    it("opens each job with -max-jobs 1 and prints its lines exactly as the one-job command's", () => {
      // Arrange
      const oneJob = createFormatter({ verbose: false, color: false, timeZone: NY });
      const expectedJobLines = webEvents.flatMap((e) => oneJob.render(e));

      // Act
      const lines = render(
        [{ type: 'job-started', time: T0, index: 2, of: 5, namespace: 'payments', job: 'web' }, ...webEvents],
        1,
      );

      // Assert
      expect(lines[0]?.text).toBe(`==> ${TS}: Restarting job "web" in namespace "payments" (2 of 5)`);
      expect(lines.slice(1)).toEqual(expectedJobLines);
      expect(texts(lines.slice(1))).toContain('\nJob restarted successfully!');
    });

    it('prefixes every line of a job with -max-jobs above 1, its opening line too', () => {
      // Act
      const lines = render(
        [{ type: 'job-started', time: T0, index: 1, of: 5, namespace: 'payments', job: 'web' }, ...webEvents],
        3,
      );

      // Assert
      expect(texts(lines)).toEqual([
        `[payments/web] ==> ${TS}: Restarting job "web" in namespace "payments" (1 of 5)`,
        `[payments/web] ==> ${TS}: Restarting 1 allocation`,
        `[payments/web]     ${TS}: Restarting running tasks in allocation "653f983e" for group "web"`,
        `[payments/web] ==> ${TS}: Job restart finished`,
        '[payments/web]\n[payments/web] Job restarted successfully!',
      ]);
    });

    it('says a locked job is skipped, naming the holder, on stderr', () => {
      // Act
      const lines = render(
        [
          {
            type: 'job-finished',
            time: T0,
            outcome: 'locked',
            reason: 'run "alice-laptop" pid 4242',
            namespace: 'payments',
            job: 'api',
          },
        ],
        1,
      );

      // Assert
      expect(lines).toEqual([
        {
          stream: 'stderr',
          text: 'Skipping job "api" in namespace "payments": locked by run "alice-laptop" pid 4242',
        },
      ]);
    });

    it('says a scheduled job was skipped for a lock once, in its own words', () => {
      // Act
      const lines = render(
        [
          {
            type: 'skipped-job-locked',
            time: T0,
            jobId: 'api',
            holder: 'other',
            namespace: 'payments',
            job: 'api',
          },
          {
            type: 'job-finished',
            time: T0,
            outcome: 'locked',
            reason: 'execution "other"',
            namespace: 'payments',
            job: 'api',
          },
        ],
        1,
      );

      // Assert
      expect(texts(lines)).toEqual([
        `==> ${TS}: Skipping scheduled restart: job "api" is already being restarted by execution "other"`,
      ]);
    });

    it('prints nothing for a job that ended in its own lines', () => {
      // Act
      const lines = render(
        [{ type: 'job-finished', time: T0, outcome: 'failed', namespace: 'payments', job: 'api' }],
        1,
      );

      // Assert
      expect(lines).toEqual([]);
    });

    it('ends with the summary block: the headline, then one line per job not restarted', () => {
      // Act
      const lines = render(
        [
          {
            type: 'fleet-finished',
            time: T0,
            restarted: 3,
            failed: 1,
            skipped: 2,
            withErrors: true,
            problems: [
              {
                namespace: 'payments',
                job: 'web',
                problem: { kind: 'failed', error: 'RestartFailed', message: 'boom' },
              },
              { namespace: 'batch', job: 'report', problem: { kind: 'sysbatch' } },
              { namespace: 'ns', job: 'job', problem: { kind: 'not-reached', why: 'max-failed-jobs' } },
            ],
            omittedProblems: 2,
            report: 'fleets/f/report.json',
          },
        ],
        1,
      );

      // Assert
      expect(texts(lines)).toEqual([
        'Fleet restart finished with errors: 3 jobs restarted, 1 failed, 2 skipped',
        '  payments/web: failed: boom',
        '  batch/report: skipped: sysbatch jobs are not restarted',
        '  ns/job: not reached: the failure budget (-max-failed-jobs 1) ran out',
        '  ... and 2 more jobs in the report "fleets/f/report.json"',
      ]);
    });
  });

  describe('createFleetFormatter().renderJobQuestion', () => {
    it('prefixes a question with its job when jobs run at once', () => {
      // Arrange
      const formatter = createFleetFormatter({
        verbose: false,
        color: false,
        timeZone: NY,
        maxJobs: 2,
        maxFailedJobs: 0,
      });

      // Act
      const text = formatter.renderJobQuestion(
        { namespace: 'payments', job: 'web' },
        proceedQuestion({ outcome: 'ok', batchWaitAsk: true }),
        T0,
      );

      // Assert
      expect(text.startsWith(`[payments/web] ==> ${TS}: `)).toBe(true);
    });
  });
});
