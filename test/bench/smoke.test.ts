// Scenario: `npm run bench` and `npm run bench:scale` at tiny sizes, so the benchmark code cannot
// rot. It checks that each run completes and that every metric of its report is there; it asserts
// no timing.

import { runBench, runScaleBench, SCALE_SMOKE, SMOKE } from '../../bench/index';
import { formatTable } from '../../bench/report';

process.env['POWERTOOLS_LOG_LEVEL'] = 'SILENT';

describe('benchmarks (smoke sizes)', () => {
  it('measures every metric of the report', async () => {
    // Act
    const report = await runBench(SMOKE);

    // Assert
    const metrics = report.rows.map((row) => row.metric).join('\n');
    for (const metric of [
      'start to exit, job not found against the simulator, checkout',
      'start to exit, validation error (-batch-size=0) against the simulator, checkout',
      'start to exit, 6 allocations in place (-batch-size 2) against the simulator, checkout',
      'Nomad requests per in-place allocation, batch 10',
      'Nomad requests per reschedule allocation, batch 10',
      'Nomad requests per in-place allocation, batch 2, without / with -wait-healthy',
      'Nomad requests per reschedule allocation, batch 2, without / with -wait-healthy',
      'state transitions per batch without / with -wait-healthy',
      'requests per in-place allocation, batch 2, -wait-healthy with a Nomad check / with a Consul check',
      'replacement detection latency',
      'orchestration overhead per batch',
      'wall time of that restart through the local engine',
      'state transitions per batch',
      'state transitions per allocation',
      'cost per 1,000 allocations at batch 10, in place',
      'cost per 1,000 allocations at batch 10, reschedule',
      'plan time (median of 3) and heap',
      'of which the simulator serialising the list',
      'largest state payload / history events per execution',
      'largest state payload / most history events in one execution, every restart failing',
      'worst mix: 1 batches, -reschedule -wait-healthy, 5 await + 5 health slices each (',
    ]) {
      expect(metrics).toContain(metric);
    }
    expect(report.rows.every((row) => !row.figure.includes('NaN'))).toBe(true);
    expect(report.scaling.map((p) => p.allocations)).toEqual([...SMOKE.scalingSizes]);
    expect(formatTable(report.rows).split('\n')).toHaveLength(report.rows.length + 2);
  });

  it('measures the scale rows (npm run bench:scale)', async () => {
    // Act
    const report = await runScaleBench(SCALE_SMOKE);

    // Assert: both runs went through continue-as-new and succeeded.
    const { inPlace, reschedule } = SCALE_SMOKE;
    expect(report.rows.map((row) => row.metric)).toEqual([
      expect.stringContaining(`${inPlace.allocations} allocations in place, batch ${inPlace.batchSize}`),
      expect.stringContaining(
        `${reschedule.allocations} allocations -reschedule, batch ${reschedule.batchSize}`,
      ),
      expect.stringContaining('local engine peak memory in those runs'),
      expect.stringContaining('plan time, Nomad requests and engine heap'),
      expect.stringContaining('wall time of the whole run through the local engine (SUCCEEDED'),
      expect.stringContaining('Nomad requests per allocation, the fleet (plan listing included)'),
      expect.stringContaining('peak Nomad requests in one second'),
      expect.stringContaining('largest state / history events of the fleet execution'),
      expect.stringContaining('local engine peak memory (engine and simulator'),
    ]);
    expect(
      report.rows.filter((row) => row.metric.includes('continue-as-new every')).map((row) => row.verdict),
    ).toEqual(['pass', 'pass']);
    // The fleet: every job planned and restarted, no more requests than one job's plus the listing,
    // and states and histories within Step Functions' quotas.
    expect(report.rows.filter((row) => row.metric.startsWith('fleet of')).map((row) => row.verdict)).toEqual([
      'pass',
      'pass',
      'pass',
      'info',
      'pass',
      'info',
    ]);
    expect(report.rows.every((row) => !row.figure.includes('NaN'))).toBe(true);
  });
});
