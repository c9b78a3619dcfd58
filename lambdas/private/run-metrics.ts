/**
 * The run's CloudWatch metrics (issue #40, docs/metrics.md), made from the run-level events a
 * step returns (lib/restart/run/run-events.ts) and a fleet's `fleet-finished`, in CloudWatch's
 * embedded metric format through Powertools Metrics: log lines CloudWatch Logs turns into
 * metrics, no API call and no IAM beyond the function's log group.
 *
 * One document holds the run's metrics with the one dimension `service`; `Runs` and `FleetJobs`
 * get one document per `Outcome`, since a document's dimension sets apply to every metric in it
 * and `Outcome` means nothing on a batch's duration. The job and the run go in as metadata
 * (properties of the log line, searchable in Logs Insights), never as dimensions: a fleet of
 * 5,000 jobs would make 5,000 metric streams of each metric.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { FleetEvent } from '../../lib/fleet/events';
import { METRIC_NAMES, METRICS_NAMESPACE, OUTCOME_DIMENSION } from '../../lib/metrics/names';
import type { ProgressEvent } from '../../lib/restart/events';
import type { RunOutcome } from '../../lib/restart/run/outcome';
import { logger } from './logger';

/** Who the metrics are about, written as metadata beside them. */
export interface MetricsSubject {
  readonly runId?: string;
  /** The ended execution, when it is not the run's first. */
  readonly executionArn?: string;
  readonly jobId?: string;
  readonly namespace?: string;
}

/**
 * A fresh Powertools Metrics per invocation: namespace `NomadRestart`, the default dimension
 * `service` from `POWERTOOLS_SERVICE_NAME` (the construct sets it to the stack's name). Its
 * warnings go to the handlers' logger, not to stdout.
 */
function newMetrics(subject: MetricsSubject): Metrics {
  const metrics = new Metrics({ namespace: METRICS_NAMESPACE, logger });
  for (const [key, value] of Object.entries(subject))
    if (value !== undefined) metrics.addMetadata(key, value);
  return metrics;
}

/** A count by `Outcome`: its own document, so the dimension is on this metric only. */
function countByOutcome(name: string, outcome: string, count: number, subject: MetricsSubject): Metrics {
  const metrics = newMetrics(subject);
  metrics.addDimension(OUTCOME_DIMENSION, outcome);
  metrics.addMetric(name, MetricUnit.Count, count);
  return metrics;
}

/**
 * A run's `Runs` data point when it ended outside the steps (aborted, timed out), where no step
 * emitted its `run-ended`.
 */
export function runEndedMetrics(outcome: RunOutcome, subject: MetricsSubject): Metrics {
  return countByOutcome(METRIC_NAMES.runs, outcome, 1, subject);
}

/**
 * The metrics of one step's events, one Powertools `Metrics` per EMF document, stored and not yet
 * published: none when the events carry no run-level event. Allocations are counted per batch
 * (`batch-finished`), not again at the run's end, so a sum over batches is the run's count.
 */
export function runMetrics(
  events: readonly (ProgressEvent | FleetEvent)[],
  subject: MetricsSubject,
): Metrics[] {
  const metrics = newMetrics(subject);
  const byOutcome: Metrics[] = [];
  for (const event of events) {
    switch (event.type) {
      case 'batch-finished':
        metrics.addMetric(METRIC_NAMES.allocationsRestarted, MetricUnit.Count, event.restarted);
        metrics.addMetric(METRIC_NAMES.allocationsFailed, MetricUnit.Count, event.failed);
        metrics.addMetric(METRIC_NAMES.batchDuration, MetricUnit.Milliseconds, event.durationMs);
        if (event.healthWaitMs !== undefined)
          metrics.addMetric(METRIC_NAMES.healthWaitTime, MetricUnit.Milliseconds, event.healthWaitMs);
        break;
      case 'question-waited':
        metrics.addMetric(METRIC_NAMES.questionWaitTime, MetricUnit.Milliseconds, event.waitedMs);
        break;
      case 'run-ended':
        byOutcome.push(
          countByOutcome(METRIC_NAMES.runs, event.outcome, 1, {
            ...subject,
            runId: event.runId,
            jobId: event.jobId,
            namespace: event.namespace,
          }),
        );
        break;
      case 'fleet-finished':
        // The fleet summary's words: "<n> restarted, <n> failed, <n> skipped".
        for (const [outcome, count] of [
          ['restarted', event.restarted],
          ['failed', event.failed],
          ['skipped', event.skipped],
        ] as const)
          byOutcome.push(countByOutcome(METRIC_NAMES.fleetJobs, outcome, count, subject));
        break;
    }
  }
  return [...(metrics.hasStoredMetrics() ? [metrics] : []), ...byOutcome];
}
