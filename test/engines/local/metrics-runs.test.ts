// Scenario: the EMF lines one run's handlers emit (issue #40), read back as CloudWatch reads them:
// the synthesized workflow through the local engine and the real handlers, against the simulator
// with ACLs on and the README's policy token, each line taken through the engine's test sink
// (`metricLines`) instead of stdout. A run in two batches with a question between them; a run
// canceled on the failure path; a run gated by -wait-healthy on the simulator's clock; a fleet of
// three jobs (its jobs' batch metrics and Runs, its FleetJobs by Outcome, and its jobs' run-level
// events tagged with their job, as its `-output json` prints them). Without the sink, a local run
// prints no EMF line at all: at a terminal stdout is Nomad's lines.

import { runFleetLocally } from '../../../lib/engines/local/fleet-engine';
import type { FleetProgressEvent } from '../../../lib/fleet/events';
import { METRIC_NAMES, METRICS_NAMESPACE } from '../../../lib/metrics/names';
import { TaskStates } from '../../../lib/workflow/state-names';
import { envForFile } from '../../fixtures/env-for-file';
import { OPERATOR_TOKEN, readmePolicyAcl } from '../../fixtures/readme-policy';
import { restartOptions } from '../../fixtures/restart-options';
import { type EmfMetric, parseEmf, sumOf } from '../../lambdas/helpers/emf';
import { captureOutput } from '../../lambdas/helpers/fixtures';
import { checkedJob } from '../../steps/health/helpers/health-fixtures';
import { eventsOf, type Harness, simpleJob, startHarness, waitAllRunning } from '../../steps/helpers/harness';
import { quickFleetParts } from './helpers/fleet-harness';
import { atSafePoint, runWorkflow } from './helpers/workflow-harness';

const SERVICE = 'nomad-restart-metrics-test';

let h: Harness | undefined;
envForFile('POWERTOOLS_SERVICE_NAME', SERVICE);
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
  it('emits each batch’s counts and duration, the question’s wait and the run’s end by Outcome', async () => {
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
      'Runs Count [service,Outcome]',
    ]);
    expect(metrics.every((m) => m.dimensions.every((d) => d['service'] === SERVICE))).toBe(true);
    // The run's end, once, under its outcome.
    expect(
      metrics.filter((m) => m.name === METRIC_NAMES.runs).map((m) => [m.dimensions[0]?.['Outcome'], m.value]),
    ).toEqual([['succeeded', 1]]);
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

  it('counts a run canceled on the failure path under Outcome canceled, after its one batch', async () => {
    // Arrange: a confirmed interrupt before the second batch; the Catch's "Release lock after
    // error" ends the run, not "Finish restart".
    const job = simpleJob('metered-cancel', 'service', 3);
    h = await startHarness({ jobs: [job], acl: readmePolicyAcl() }, { token: OPERATOR_TOKEN });
    await waitAllRunning(h, job.ID, 3);
    const lines: string[] = [];

    // Act
    const run = await runWorkflow(h, restartOptions(job.ID), {
      token: OPERATOR_TOKEN,
      ...atSafePoint(2, (started) => started.requestCancel()),
      metricLines: (line) => lines.push(line),
    });

    // Assert
    expect(run.entered).toContain(TaskStates.releaseLockAfterError);
    const metrics = parseEmf(lines);
    expect(
      metrics.filter((m) => m.name === METRIC_NAMES.runs).map((m) => [m.dimensions[0]?.['Outcome'], m.value]),
    ).toEqual([['canceled', 1]]);
    expect(sumOf(metrics, METRIC_NAMES.allocationsRestarted)).toBe(1);
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

  it("emits a fleet's jobs by Outcome, and each job's batches, its jobs' events tagged with their job", async () => {
    // Arrange
    const jobs = ['fleet-a', 'fleet-b', 'fleet-c'].map((id, i) => simpleJob(id, 'service', i + 1));
    h = await startHarness({ jobs, acl: readmePolicyAcl() }, { token: OPERATOR_TOKEN });
    for (const job of jobs) await waitAllRunning(h, job.ID, job.TaskGroups?.[0]?.Count ?? 0);
    const lines: string[] = [];
    const events: FleetProgressEvent[] = [];

    // Act
    const fleet = await runFleetLocally({
      input: { namespace: 'default', filter: 'ID matches "^fleet-"', yes: true },
      ...quickFleetParts(h),
      emit: (event) => events.push(event),
      metricLines: (line) => lines.push(line),
    });
    await fleet.result;

    // Assert
    const metrics = parseEmf(lines);
    expect(
      metrics
        .filter((m) => m.name === METRIC_NAMES.fleetJobs)
        .map((m) => [m.dimensions[0]?.['Outcome'], m.value]),
    ).toEqual([
      ['restarted', 3],
      ['failed', 0],
      ['skipped', 0],
    ]);
    expect(sumOf(metrics, METRIC_NAMES.allocationsRestarted)).toBe(1 + 2 + 3);
    // Each job's run ends once under its outcome, beside the fleet's count of its jobs.
    expect(
      metrics
        .filter((m) => m.name === METRIC_NAMES.runs)
        .map((m) => m.line['jobId'])
        .sort(),
    ).toEqual(['fleet-a', 'fleet-b', 'fleet-c']);
    expect(
      metrics
        .flatMap((m) => m.dimensions)
        .every((d) => Object.keys(d).every((k) => k === 'service' || k === 'Outcome')),
    ).toBe(true);
    const finished = events.filter((e) => e.type === 'batch-finished');
    // One batch per allocation (-batch-size 1): a's one, b's two, c's three.
    expect(finished.map((e) => ('job' in e ? e.job : undefined)).sort()).toEqual([
      'fleet-a',
      'fleet-b',
      'fleet-b',
      'fleet-c',
      'fleet-c',
      'fleet-c',
    ]);
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
