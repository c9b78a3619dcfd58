/**
 * The run's CloudWatch metrics (issue #40): their namespace, names and dimensions, shared by the
 * Lambdas that emit them (embedded metric format through Powertools Metrics: log lines, no API
 * call) and the dashboard and alarm the stack draws from them (lib/constructs).
 *
 * Dimensions are few on purpose: a metric stream exists per distinct set of dimension values, so a
 * job ID dimension would make a fleet of 5,000 jobs 5,000 streams (and 5,000 custom metrics to pay
 * for). The job is in the log line beside the metric (EMF properties that are not dimensions) and
 * in the run history; the metrics say how the cluster's restarts go as a whole.
 */

/** The CloudWatch namespace of every metric below. */
export const METRICS_NAMESPACE = 'NomadRestart';

/**
 * The dimension that tells two deployments apart in one account and region: Powertools' `service`,
 * set to the stack's name on every function.
 */
export const SERVICE_DIMENSION = 'service';

/** How a run (or a fleet's job) ended: the `Runs` and `FleetJobs` metrics' one extra dimension. */
export const OUTCOME_DIMENSION = 'Outcome';

/** The metric names. Counts are `Count`, times `Milliseconds`. */
export const METRIC_NAMES = {
  /** Allocations restarted (or rescheduled) without error, per batch. */
  allocationsRestarted: 'AllocationsRestarted',
  /** Allocations whose restart failed, per batch. */
  allocationsFailed: 'AllocationsFailed',
  /** From a batch's restart calls to its end (replacements running, healthy with the gate). */
  batchDuration: 'BatchDuration',
  /** Of a batch's duration, the health wait (`-wait-healthy`). */
  healthWaitTime: 'HealthWaitTime',
  /** How long a question waited for its answer (or its timeout). */
  questionWaitTime: 'QuestionWaitTime',
  /** Runs ended, by `Outcome`. */
  runs: 'Runs',
  /** A fleet's jobs ended, by `Outcome`. */
  fleetJobs: 'FleetJobs',
} as const;
