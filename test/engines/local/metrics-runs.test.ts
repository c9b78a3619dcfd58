// Scenario: the EMF lines one run's handlers emit (issue #40), read back as CloudWatch reads them:
// the synthesized workflow through the local engine and the real handlers, against the simulator
// with ACLs on and the README's policy token, each line taken through the engine's test sink
// (`metricLines`) instead of stdout. A run in two batches with a question between them, and a
// run gated by -wait-healthy on the simulator's clock. Without the sink, a local run prints no
// EMF line at all: at a terminal stdout is Nomad's lines.

import { METRIC_NAMES, METRICS_NAMESPACE } from '../../../lib/metrics/names';
import { OPERATOR_TOKEN, readmePolicyAcl } from '../../fixtures/readme-policy';
import { restartOptions } from '../../fixtures/restart-options';
import { type EmfMetric, parseEmf, sumOf } from '../../lambdas/helpers/emf';
import { captureOutput } from '../../lambdas/helpers/fixtures';
import { checkedJob } from '../../steps/health/helpers/health-fixtures';
import { eventsOf, type Harness, simpleJob, startHarness, waitAllRunning } from '../../steps/helpers/harness';
import { runWorkflow } from './helpers/workflow-harness';

const SERVICE = 'nomad-restart-metrics-test';

let h: Harness | undefined;
const serviceBefore = process.env['POWERTOOLS_SERVICE_NAME'];
beforeAll(() => {
  process.env['POWERTOOLS_SERVICE_NAME'] = SERVICE;
});
afterAll(() => {
  if (serviceBefore === undefined) delete process.env['POWERTOOLS_SERVICE_NAME'];
  else process.env['POWERTOOLS_SERVICE_NAME'] = serviceBefore;
});
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Each metric's name, unit and dimension names, as CloudWatch would file it. */
const filed = (metrics: readonly EmfMetric[]) =>
  [
    ...new Set(
      metrics.map(
        (m) => `${m.name} ${m.unit} [${m.dimensions.map((d) => Object.keys(d).join(',')).join('|')}]`,
      ),
    ),
  ].sort();

describe('the run metrics of a local run', () => {
  it('emits each batch’s counts and duration and the question’s wait, the service their only dimension', async () => {
    // Arrange
    const job = simpleJob('metered', 'service', 3);
    h = await startHarness({ jobs: [job], acl: readmePolicyAcl() }, { token: OPERATOR_TOKEN });
    await waitAllRunning(h, job.ID, 3);
    const lines: string[] = [];
    const options = restartOptions(job.ID, {
      yes: false,
      batchSize: { value: 2, percent: false },
      batchWait: { kind: 'ask' },
    });

    // Act
    const run = await runWorkflow(h, options, {
      token: OPERATOR_TOKEN,
      replies: ['y'],
      metricLines: (line) => lines.push(line),
    });

    // Assert
    expect(run.exitCode).toBe(0);
    const metrics = parseEmf(lines);
    expect(metrics.every((m) => m.namespace === METRICS_NAMESPACE)).toBe(true);
    expect(filed(metrics)).toEqual([
      'AllocationsFailed Count [service]',
      'AllocationsRestarted Count [service]',
      'BatchDuration Milliseconds [service]',
      'QuestionWaitTime Milliseconds [service]',
    ]);
    expect(metrics.every((m) => m.dimensions.every((d) => d['service'] === SERVICE))).toBe(true);
    // The restarted count is the run's; the job is the lines' metadata, never a dimension.
    const finished = eventsOf(run.events, 'finished')[0];
    expect(sumOf(metrics, METRIC_NAMES.allocationsRestarted)).toBe(3);
    expect(finished?.errors).toEqual([]);
    expect(sumOf(metrics, METRIC_NAMES.allocationsFailed)).toBe(0);
    expect(metrics.filter((m) => m.name === METRIC_NAMES.batchDuration)).toHaveLength(2);
    expect(metrics.every((m) => m.line['jobId'] === 'metered' && typeof m.line['runId'] === 'string')).toBe(
      true,
    );
    expect(
      metrics.flatMap((m) => m.dimensions).some((d) => 'jobId' in d || Object.values(d).includes('metered')),
    ).toBe(false);
  });

  it('emits the health wait of a batch gated by -wait-healthy', async () => {
    // Arrange: the steps on the simulator's clock, so the gate's times are simulated ms.
    const job = checkedJob('metered-healthy', 1);
    h = await startHarness({ jobs: [job], acl: readmePolicyAcl() }, { token: OPERATOR_TOKEN });
    await waitAllRunning(h, job.ID, 1);
    const lines: string[] = [];
    const gate = { minHealthyTimeNs: 10e9, healthyDeadlineNs: 300e9 };

    // Act
    const run = await runWorkflow(h, restartOptions(job.ID, { waitHealthy: gate }), {
      token: OPERATOR_TOKEN,
      now: h.now,
      sleep: h.sleep,
      metricLines: (line) => lines.push(line),
    });

    // Assert
    expect(run.exitCode).toBe(0);
    const metrics = parseEmf(lines);
    const wait = metrics.find((m) => m.name === METRIC_NAMES.healthWaitTime);
    const duration = metrics.find((m) => m.name === METRIC_NAMES.batchDuration);
    expect(wait?.unit).toBe('Milliseconds');
    // At least -min-healthy-time, and within the batch's duration.
    expect(wait?.value).toBeGreaterThanOrEqual(10_000);
    expect(duration?.value).toBeGreaterThanOrEqual(Number(wait?.value));
    expect(sumOf(metrics, METRIC_NAMES.allocationsRestarted)).toBe(1);
  });

  it('prints no EMF line when no test takes them: stdout at a terminal is Nomad’s', async () => {
    // Arrange
    const job = simpleJob('unmetered', 'service', 1);
    h = await startHarness({ jobs: [job], acl: readmePolicyAcl() }, { token: OPERATOR_TOKEN });
    await waitAllRunning(h, job.ID, 1);
    const target = h;

    // Act
    const { result, output } = await captureOutput(() =>
      runWorkflow(target, restartOptions(job.ID), { token: OPERATOR_TOKEN }),
    );

    // Assert
    expect(result?.exitCode).toBe(0);
    expect(eventsOf(result?.events ?? [], 'batch-finished')).toHaveLength(1);
    expect(output).not.toContain('_aws');
  });
});
