/**
 * The run's metrics (lib/metrics/names.ts) as the stack reads them: the `service` every function
 * is told to emit them under, and the CloudWatch metrics the dashboard draws and the failed-runs
 * alarm watches. One module, so the functions' environment and the readers cannot disagree on a
 * namespace or a dimension.
 */
import { type Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';
import { METRIC_NAMES, METRICS_NAMESPACE, OUTCOME_DIMENSION, SERVICE_DIMENSION } from '../../metrics/names';
import type { RunOutcome } from '../../restart/run/outcome';

/**
 * The `service` dimension of the metrics of the functions under `scope`: the stack's name, unique
 * in an account and region (CloudFormation's rule), so two deployments side by side (staging and
 * production) never add up on one graph. Two workflows in one stack would share it.
 */
export function metricsServiceOf(scope: Construct): string {
  return Stack.of(scope).stackName;
}

/**
 * What every function reads to emit the run's metrics: Powertools takes its default `service`
 * dimension from `POWERTOOLS_SERVICE_NAME` and its namespace from `POWERTOOLS_METRICS_NAMESPACE`
 * (https://docs.powertools.aws.dev/lambda/typescript/latest/#environment-variables). The handlers'
 * Metrics must take them from here, never name a service in code, or the dashboard and the alarm read
 * a stream nobody writes. (Their Logger names its own service, `nomad-restart`: lambdas/private/logger.ts.)
 */
export function metricsEnvironment(scope: Construct): Record<string, string> {
  return {
    POWERTOOLS_SERVICE_NAME: metricsServiceOf(scope),
    POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
  };
}

/** A metric of the run: its name, and how to read it. */
export interface RunMetricOptions {
  readonly statistic: string;
  readonly period: Duration;
  readonly label?: string;
  /** `Runs` and `FleetJobs` only: their one extra dimension (`Outcome`). */
  readonly outcome?: string;
}

/** One of the run's metrics of deployment `service`, with exactly the dimensions it is emitted with. */
export function runMetric(
  service: string,
  name: (typeof METRIC_NAMES)[keyof typeof METRIC_NAMES],
  options: RunMetricOptions,
): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: METRICS_NAMESPACE,
    metricName: name,
    dimensionsMap: {
      [SERVICE_DIMENSION]: service,
      ...(options.outcome === undefined ? {} : { [OUTCOME_DIMENSION]: options.outcome }),
    },
    statistic: options.statistic,
    period: options.period,
    ...(options.label === undefined ? {} : { label: options.label }),
  });
}

/**
 * Every `Outcome` of `Runs` (or `FleetJobs`) of deployment `service`, one line each, summed per
 * period: a search, so an outcome is drawn as soon as one is emitted and no outcome's name is
 * kept twice (https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/search-expression-syntax.html).
 */
export function byOutcome(
  service: string,
  name: typeof METRIC_NAMES.runs | typeof METRIC_NAMES.fleetJobs,
  period: Duration,
): cloudwatch.MathExpression {
  const schema = `{${METRICS_NAMESPACE},${OUTCOME_DIMENSION},${SERVICE_DIMENSION}}`;
  const terms = `MetricName="${name}" ${SERVICE_DIMENSION}="${service}"`;
  return new cloudwatch.MathExpression({
    expression: `SEARCH('${schema} ${terms}', 'Sum', ${period.toSeconds()})`,
    // No expression label: the legend names each line by its metric (its outcome) alone.
    label: '',
    usingMetrics: {},
    period,
  });
}

/**
 * The outcomes the failed-runs alarm counts: a restart that went wrong, or a run that never got to
 * restart. Not `canceled` (a "no" to a question or a `stop`), `aborted` (the execution stopped
 * from outside: someone chose to; the executions-aborted alarm still tells), `stopped-at-window-end`
 * or `skipped-job-locked`: each is the run doing what it was told, and an alarm that fires on an
 * operator's own decisions teaches people to ignore it.
 */
export const FAILED_RUN_OUTCOMES = [
  'failed',
  'unrecoverable',
  'error',
  'timed-out',
] as const satisfies readonly RunOutcome[];

/**
 * The runs of deployment `service` that ended in one of {@link FAILED_RUN_OUTCOMES} per period: the
 * sum of their `Runs` metrics, each with its missing points filled with 0 (`FILL`), so the sum
 * counts whichever outcomes happened and a quiet period reads 0, not no data
 * (https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/using-metric-math.html).
 */
export function failedRunsMetric(service: string, period: Duration): cloudwatch.MathExpression {
  // Metric math ids start with a lower-case letter and hold letters, digits and underscores.
  const idOf = (outcome: string) => `runs_${outcome.replace(/-/g, '_')}`;
  return new cloudwatch.MathExpression({
    expression: `SUM([${FAILED_RUN_OUTCOMES.map((o) => `FILL(${idOf(o)}, 0)`).join(', ')}])`,
    usingMetrics: Object.fromEntries(
      FAILED_RUN_OUTCOMES.map((outcome) => [
        idOf(outcome),
        runMetric(service, METRIC_NAMES.runs, { statistic: cloudwatch.Stats.SUM, period, outcome }),
      ]),
    ),
    label: `Failed runs (${FAILED_RUN_OUTCOMES.join(', ')})`,
    period,
  });
}
