/**
 * The alarms on the workflow as a whole: executions that ended badly, and answers the public
 * endpoint turned away. Without them a failed 02:00 maintenance restart is seen only by whoever
 * opens the console (the functions' own error alarms are in TaskFunction).
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import { FAILED_RUN_OUTCOMES, failedRunsMetric, metricsServiceOf } from './run-metrics';

/** One alarm per way an execution ends without succeeding. */
export interface ExecutionAlarms {
  /** An execution ended in a Fail state (`JobLocked`, `StepFailed`, `RestartFailed`...) or failed outright. */
  readonly failed: cloudwatch.Alarm;
  /** An execution ran past the state machine's timeout. */
  readonly timedOut: cloudwatch.Alarm;
  /** An execution was stopped from outside (StopExecution, e.g. in the console). */
  readonly aborted: cloudwatch.Alarm;
}

const PERIOD = Duration.minutes(5);

/** Any one occurrence of `metric` in 5 minutes; no data (nothing ran) is not a problem. */
function onAny(scope: Construct, id: string, metric: cloudwatch.IMetric, description: string) {
  return new cloudwatch.Alarm(scope, id, {
    alarmDescription: description,
    metric,
    threshold: 1,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: 1,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
}

/** What an alarm's description says about the executions of each state machine. */
const ALARM_TEXTS = {
  restart: {
    run: 'A nomad-restart run',
    next: "The execution's error and cause name what happened (console, or nomad-restart -engine=aws attach); the job's lock was released by the run or by the stale-lock rule.",
  },
  fleet: {
    run: 'A nomad-restart fleet run',
    next: "The execution's error and cause name what happened (console, or nomad-restart attach); its summary names each job that failed or was not reached. A stopped fleet stops its jobs' executions, whose locks the stale-lock rule releases.",
  },
} as const;

/**
 * `ExecutionsFailed`, `ExecutionsTimedOut` and `ExecutionsAborted` of the state machine, each in
 * ALARM for the 5 minutes in which one happened. A scheduled run that skipped a locked job
 * succeeds (`SkippedJobLocked`), and a run that continues as new ends SUCCEEDED: neither alarms.
 * `kind` picks the descriptions: the one-job state machine's, or the fleet's.
 */
export function executionAlarms(
  scope: Construct,
  stateMachine: sfn.StateMachine,
  kind: keyof typeof ALARM_TEXTS = 'restart',
): ExecutionAlarms {
  const sum = { period: PERIOD, statistic: cloudwatch.Stats.SUM };
  const { run, next } = ALARM_TEXTS[kind];
  return {
    failed: onAny(scope, 'ExecutionsFailed', stateMachine.metricFailed(sum), `${run} failed. ${next}`),
    timedOut: onAny(
      scope,
      'ExecutionsTimedOut',
      stateMachine.metricTimedOut(sum),
      `${run} timed out. ${next}`,
    ),
    aborted: onAny(
      scope,
      'ExecutionsAborted',
      stateMachine.metricAborted(sum),
      `${run} was stopped from outside (StopExecution, e.g. in the console). ${next}`,
    ),
  };
}

/**
 * Throttles of the answer endpoint: its reserved concurrency (or the account's) is spent, so
 * Slack and webhook answers get 429s and Slack shows the user an error.
 */
export function endpointThrottlesAlarm(scope: Construct, endpoint: lambda.IFunction): cloudwatch.Alarm {
  return onAny(
    scope,
    'EndpointThrottles',
    endpoint.metricThrottles({ period: PERIOD, statistic: cloudwatch.Stats.SUM }),
    'The nomad-restart answer endpoint turned answers away (throttled): raise approvalEndpointReservedConcurrency, or look for a flood of requests at its URL.',
  );
}

/**
 * Runs that ended badly, from the runs' own metric (`Runs` by `Outcome`, lib/metrics/names.ts):
 * in ALARM for the 5 minutes in which one ended `failed`, `unrecoverable`, `error` or `timed-out`.
 * Unlike the executions-failed alarm it counts a fleet's jobs one by one, and it stays quiet for a
 * run stopped on purpose (see FAILED_RUN_OUTCOMES).
 */
export function failedRunsAlarm(scope: Construct): cloudwatch.Alarm {
  const service = metricsServiceOf(scope);
  return onAny(
    scope,
    'FailedRuns',
    failedRunsMetric(service, PERIOD),
    `A nomad-restart run of ${service} went wrong (outcome ${FAILED_RUN_OUTCOMES.join(', ')}). nomad-restart history <job> names the run, who started it, its first errors and its execution.`,
  );
}
