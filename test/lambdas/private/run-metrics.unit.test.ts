import { runMetrics } from '../../../lambdas/private/run-metrics';
import type { FleetEvent } from '../../../lib/fleet/events';
import type { ProgressEvent } from '../../../lib/restart/events';
import { envForFile } from '../../fixtures/env-for-file';
import { parseEmf } from '../helpers/emf';

const SERVICE = 'nomad-restart-stack';

const lines = (events: readonly (ProgressEvent | FleetEvent)[]) =>
  runMetrics(events, { runId: 'run-1', jobId: 'payments', namespace: 'prod' }).map((m) =>
    JSON.stringify(m.serializeMetrics()),
  );

describe('runMetrics', () => {
  envForFile('POWERTOOLS_SERVICE_NAME', SERVICE);

  it("turns a batch's end into its counts and times, with the service as the only dimension", () => {
    // Arrange
    const event: ProgressEvent = {
      type: 'batch-finished',
      time: 1,
      batchNumber: 1,
      batches: 2,
      restarted: 3,
      failed: 1,
      durationMs: 42_000,
      healthWaitMs: 30_000,
    };

    // Act
    const metrics = parseEmf(lines([event]));

    // Assert
    expect(
      metrics.map(({ namespace, name, unit, dimensions, value }) => ({
        namespace,
        name,
        unit,
        dimensions,
        value,
      })),
    ).toEqual(
      [
        ['AllocationsRestarted', 'Count', 3],
        ['AllocationsFailed', 'Count', 1],
        ['BatchDuration', 'Milliseconds', 42_000],
        ['HealthWaitTime', 'Milliseconds', 30_000],
      ].map(([name, unit, value]) => ({
        namespace: 'NomadRestart',
        name,
        unit,
        dimensions: [{ service: SERVICE }],
        value,
      })),
    );
    // The job and the run are metadata beside the metrics, never a dimension.
    expect(metrics[0]?.line).toMatchObject({ jobId: 'payments', runId: 'run-1', namespace: 'prod' });
  });

  it("turns a question's wait into QuestionWaitTime", () => {
    // Act
    const metrics = parseEmf(
      lines([{ type: 'question-waited', time: 1, kind: 'proceed', waitedMs: 9_000, answer: 'yes' }]),
    );

    // Assert
    expect(metrics).toEqual([
      expect.objectContaining({ name: 'QuestionWaitTime', unit: 'Milliseconds', value: 9_000 }),
    ]);
  });

  it("counts a run's end under its Outcome, a dimension on Runs only", () => {
    // Arrange
    const ended: ProgressEvent = {
      type: 'run-ended',
      time: 1,
      runId: 'run-2',
      jobId: 'billing',
      namespace: 'default',
      outcome: 'failed',
      counts: { planned: 4, restarted: 3, failed: 1, skipped: 0, notReached: 0 },
      durationMs: 1_000,
    };
    const batch: ProgressEvent = {
      type: 'batch-finished',
      time: 1,
      batchNumber: 2,
      batches: 2,
      restarted: 1,
      failed: 1,
      durationMs: 5,
    };

    // Act
    const metrics = parseEmf(lines([batch, ended]));

    // Assert
    const runs = metrics.filter((m) => m.name === 'Runs');
    expect(runs).toEqual([
      expect.objectContaining({
        unit: 'Count',
        value: 1,
        dimensions: [{ service: SERVICE, Outcome: 'failed' }],
      }),
    ]);
    expect(runs[0]?.line).toMatchObject({ jobId: 'billing', runId: 'run-2' });
    expect(
      metrics.filter((m) => m.name !== 'Runs').every((m) => m.dimensions.every((d) => !('Outcome' in d))),
    ).toBe(true);
    // Allocations are counted at each batch's end only: the run's end adds none.
    expect(metrics.filter((m) => m.name === 'AllocationsRestarted').map((m) => m.value)).toEqual([1]);
  });

  it("counts a fleet's jobs by Outcome in the fleet summary's words", () => {
    // Arrange
    const finished: FleetEvent = {
      type: 'fleet-finished',
      time: 1,
      restarted: 4_998,
      failed: 1,
      skipped: 1,
      withErrors: true,
    };

    // Act
    const metrics = parseEmf(lines([finished]));

    // Assert
    expect(metrics.map((m) => [m.name, m.dimensions, m.value])).toEqual([
      ['FleetJobs', [{ service: SERVICE, Outcome: 'restarted' }], 4_998],
      ['FleetJobs', [{ service: SERVICE, Outcome: 'failed' }], 1],
      ['FleetJobs', [{ service: SERVICE, Outcome: 'skipped' }], 1],
    ]);
  });

  it('makes no metrics of events that are not run-level', () => {
    // Act / Assert
    expect(runMetrics([{ type: 'restart-started', time: 1, count: 3 }], {})).toEqual([]);
  });
});
