import { createFleetFormatter } from '../../lib/fleet/format';
import { type FleetPlanPreview, renderFleetPlan } from '../../lib/fleet/format-plan';
import { validateExecutionInput } from '../../lib/restart/execution-input';
import type { OutputLine } from '../../lib/restart/format';
import type { RestartPlan } from '../../lib/restart/plan';

const T0 = Date.UTC(2023, 1, 28, 22, 40, 58);
const TS = '2023-02-28T17:40:58-05:00';
const formatter = createFleetFormatter({
  verbose: false,
  color: false,
  timeZone: 'America/New_York',
  maxJobs: 2,
  maxFailedJobs: 1,
});
const options = validateExecutionInput({ job: 'web', batchSize: '2' });

/** Job `id`'s one-job plan: `count` allocations in batches of 2. */
function jobPlan(id: string, count: number): RestartPlan {
  const allocations = Array.from({ length: count }, (_, i) => ({
    id: `${id}-alloc-${i}-0000-0000-0000-000000000000`,
    group: 'g',
    jobId: id,
    tasks: [],
  }));
  const batches = [allocations.slice(0, 2), allocations.slice(2)].filter((b) => b.length > 0);
  return {
    kind: 'plan',
    job: { id, type: 'service', multiregion: false },
    batchSize: 2,
    batches,
    skipped: [],
    counts: { listed: count, eligible: count, skipped: 0, skippedBy: {} },
    createdAt: T0,
  };
}

const preview: FleetPlanPreview = {
  createdAt: T0,
  jobs: [
    { namespace: 'payments', job: 'web', allocations: 3, plan: jobPlan('web', 3) },
    { namespace: 'shop', job: 'db', allocations: 1, plan: jobPlan('db', 1) },
  ],
  skipped: [{ namespace: 'batch', job: 'report', reason: { kind: 'sysbatch' } }],
  namespaces: ['batch', 'payments', 'shop'],
  maxJobs: 2,
  maxFailedJobs: 1,
  order: 'id',
  requests: ['GET /v1/namespaces', 'GET /v1/jobs?filter=…&meta=true&namespace=*'],
};
const texts = (lines: OutputLine[]) => lines.map((l) => l.text);

describe('fleet dry run', () => {
  describe('renderFleetPlan', () => {
    it('opens with what it would restart, the budget, the order and the namespaces seen', () => {
      // Act
      const lines = texts(renderFleetPlan(preview, options, formatter));

      // Assert
      expect(lines.slice(0, 5)).toEqual([
        `==> ${TS}: Dry run: would restart 4 allocations of 2 jobs, at most 2 at a time (-max-failed-jobs 1), in order namespace, then job ID; nothing was changed`,
        `==> ${TS}: Namespaces the token can list: batch, payments, shop`,
        `==> ${TS}: Jobs selected with 2 requests`,
        '        GET /v1/namespaces',
        '        GET /v1/jobs?filter=…&meta=true&namespace=*',
      ]);
    });

    it("lists each job in order with the one-job dry run's lines, then the skipped jobs and the totals", () => {
      // Act
      const lines = texts(renderFleetPlan(preview, options, formatter));

      // Assert
      expect(lines).toContain(`==> ${TS}: Job "web" in namespace "payments" (1 of 2): 3 allocations`);
      expect(lines).toContain(
        `==> ${TS}: Dry run: would restart 3 allocations of job "web" in 2 batches of up to 2; nothing was changed`,
      );
      expect(
        lines.indexOf(`==> ${TS}: Job "db" in namespace "shop" (2 of 2): 1 allocations`),
      ).toBeGreaterThan(
        lines.indexOf(`==> ${TS}: Job "web" in namespace "payments" (1 of 2): 3 allocations`),
      );
      expect(lines.slice(-3)).toEqual([
        `==> ${TS}: Skipping 1 jobs`,
        '    batch/report: skipped: sysbatch jobs are not restarted',
        // 2 selection reads; web: 2 deployment checks + 3 restarts; db: 1 deployment check + 1 restart.
        `==> ${TS}: Totals: 2 jobs to restart (4 allocations), 1 skipped; 9 Nomad requests listed above`,
      ]);
    });

    it('says so when priority decides the order', () => {
      // Act
      const [first] = texts(renderFleetPlan({ ...preview, order: 'priority' }, options, formatter));

      // Assert
      expect(first).toContain('in order by priority, highest last');
    });
  });
});
