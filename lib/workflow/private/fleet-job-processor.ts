/**
 * The fleet's item processor: one job of the fleet, restarted by a child execution of the one-job
 * state machine, with a locked job told apart from a failed one.
 */
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import type { Construct } from 'constructs';
import { FleetFlowStates, FleetTaskStates } from '../fleet-state-names';
import { FailStates } from '../state-names';
import { followContinuedJob } from './fleet-continuation';
import { ERROR_RESULT_PATH, retryWithBackoff, START_EXECUTION_RETRY_ERRORS } from './retry-catch';

/**
 * The error of the item processor's Fail state: what the Distributed Map counts toward
 * `ToleratedFailureCount`, and what the ResultWriter's `FAILED_n.json` records for the job (its
 * cause is the `.sync` task's: the child's DescribeExecution, or the start's own message).
 */
export const JOB_FAILED_ERROR = 'JobFailed';

/** The item processor's Pass that shapes a locked job's result (no other part names it). */
export const READ_LOCK_HOLDER = 'Read lock holder';

/** The item processor's Succeed of a job whose run (its whole continue-as-new chain) ended. */
const JOB_ENDED = 'Job ended';

/** Where "Read job error" writes the failed child's DescribeExecution, parsed. */
const FAILED_EXECUTION_PATH = '$.failedExecution';

/**
 * The item processor. Its input is the Distributed Map's `ItemSelector`: `{ options, item }`
 * (the fleet's shared one-job options and a `FleetJobItem`). Its output, recorded by the
 * ResultWriter:
 * - a job restarted (or, in a scheduled run, found locked: the child succeeds with outcome
 *   `skipped-job-locked`): `FleetJobResult` (job, namespace, fleet, executionArn, the child's output);
 * - a job locked by another run outside a schedule (the child failed `JobLocked`): the same
 *   `FleetJobResult` with the child's cause (the holder's words) as its `output`, a success of the
 *   item, so a locked job never counts toward `-max-failed-jobs`;
 * - any other end: the Fail state {@link JOB_FAILED_ERROR}.
 */
export function fleetJobProcessor(scope: Construct, restartStateMachine: sfn.IStateMachine): sfn.IChainable {
  // One-level merge: the item's job, namespace and fleet beside the shared options
  // (lib/fleet/items.ts: the item's input holds only one-job input fields).
  const jobInput = new sfn.Pass(scope, FleetFlowStates.jobInput, {
    parameters: {
      'input.$': 'States.JsonMerge($.options, $.item.input, false)',
      'name.$': '$.item.executionName',
    },
  });
  const restartJob = new tasks.StepFunctionsStartExecution(scope, FleetTaskStates.restartJob, {
    stateMachine: restartStateMachine,
    // `.sync:2`: waits for the child, whose output comes back as JSON, not a string.
    integrationPattern: sfn.IntegrationPattern.RUN_JOB,
    input: sfn.TaskInput.fromJsonPathAt('$.input'),
    // The item's deterministic name: a retried start finds the same execution, never a second one
    // (https://docs.aws.amazon.com/step-functions/latest/apireference/API_StartExecution.html).
    name: sfn.JsonPath.stringAt('$.name'),
    // No `associateWithParent`: it needs an object input to add `AWS_STEP_FUNCTIONS_STARTED_BY_EXECUTION_ID`
    // to, and the input here is a path; the child carries its fleet's run ID in `fleet.runId`.
    resultSelector: {
      'job.$': '$.Input.job',
      'namespace.$': '$.Input.namespace',
      'fleet.$': '$.Input.fleet',
      'executionArn.$': '$.ExecutionArn',
      'output.$': '$.Output',
    },
  });
  restartJob.addRetry(retryWithBackoff(START_EXECUTION_RETRY_ERRORS));

  const jobFailed = new sfn.Fail(scope, FleetFlowStates.jobFailed, {
    error: JOB_FAILED_ERROR,
    causePath: `${ERROR_RESULT_PATH}.Cause`,
  });
  // A child that ended without succeeding fails the `.sync` task with `States.TaskFailed`, its
  // cause the child's DescribeExecution as JSON (with the child's own Error and Cause)
  // (https://docs.aws.amazon.com/step-functions/latest/dg/connect-stepfunctions.html).
  const readJobError = new sfn.Pass(scope, FleetFlowStates.readJobError, {
    parameters: { 'execution.$': `States.StringToJson(${ERROR_RESULT_PATH}.Cause)` },
    resultPath: FAILED_EXECUTION_PATH,
  });
  const childError = `${FAILED_EXECUTION_PATH}.execution.Error`;
  const jobLocked = new sfn.Choice(scope, FleetFlowStates.jobLocked)
    .when(
      sfn.Condition.and(
        sfn.Condition.isPresent(childError),
        sfn.Condition.stringEquals(childError, FailStates.jobLocked),
      ),
      new sfn.Pass(scope, READ_LOCK_HOLDER, {
        // The item's result as a restarted job's, with the holder's words as its output. `$` is
        // "Job input"'s output here ({input, name}): the job is in the merged one-job input.
        parameters: {
          'job.$': '$.input.job',
          'namespace.$': '$.input.namespace',
          'fleet.$': '$.input.fleet',
          'executionArn.$': `${FAILED_EXECUTION_PATH}.execution.ExecutionArn`,
          'output.$': `${FAILED_EXECUTION_PATH}.execution.Cause`,
        },
      }).next(new sfn.Succeed(scope, FleetFlowStates.jobSkippedLocked)),
    )
    .otherwise(jobFailed);
  restartJob.addCatch(readJobError.next(jobLocked), {
    errors: [sfn.Errors.TASKS_FAILED],
    resultPath: ERROR_RESULT_PATH,
  });
  // Anything else (the start refused, a cause that is no execution): the job failed, with AWS's message.
  restartJob.addCatch(jobFailed, { errors: [sfn.Errors.ALL], resultPath: ERROR_RESULT_PATH });

  // A job that continued as new is followed to the end of its chain before the item ends.
  const jobEnded = new sfn.Succeed(scope, JOB_ENDED);
  restartJob.next(followContinuedJob(scope, restartStateMachine, jobEnded, jobFailed));
  return sfn.Chain.start(jobInput).next(restartJob);
}
