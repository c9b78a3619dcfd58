/**
 * Following a fleet's job that continued as new. `states:startExecution.sync:2` waits only for the
 * execution it started; a one-job run that continues as new ("Continue as new execution" in
 * `definition.ts`) ends that execution with `{ executionArn: <successor> }` while the job goes on
 * in the successor. These states poll the successor (and its own successors) until the chain ends,
 * so the item, and its Distributed Map concurrency slot, ends when the job does.
 * (https://docs.aws.amazon.com/step-functions/latest/dg/connect-stepfunctions.html)
 */
import { ArnFormat, Duration, Stack } from 'aws-cdk-lib';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import type { Construct } from 'constructs';
import { ERROR_RESULT_PATH, retryWithBackoff } from './retry-catch';

/** The states of the follow-up loop (the item processor's; no other part names them). */
export const ContinuationStates = {
  /** Choice: did the job's last execution hand over to a successor? */
  jobContinued: 'Job continued?',
  /** Wait between two looks at the successor. */
  waitForContinuedJob: 'Wait for continued job',
  /** Task: the successor's status only. */
  readContinuedJob: 'Read continued job',
  /** Choice on the successor's status. */
  continuedJobStatus: 'Continued job status?',
  /** Task: a succeeded successor's output. */
  readContinuedOutput: 'Read continued output',
  /** Pass: the successor's output as the item's `output`. */
  takeContinuedOutput: 'Take continued output',
  /** Task: a failed successor's `Error` and `Cause`. */
  readContinuedError: 'Read continued error',
  /** Fail: the item fails with the failed successor's own `Error` and `Cause`. */
  continuedJobFailed: 'Continued job failed',
  /** Pass: the cause of a successor stopped or timed out (it has no error of its own to tell). */
  continuedJobStopped: 'Continued job stopped',
} as const;

/**
 * Seconds between two DescribeExecution calls on a continued job. The cost is one call (and nine
 * history events of the item execution: Wait 2, Task 5, Choice 2) per continued job per
 * interval: at 60 s an item's 25,000-event history lasts some 45 hours of one job's run, and a
 * finished job frees its concurrency slot at most a minute late.
 * (https://docs.aws.amazon.com/step-functions/latest/dg/service-quotas.html)
 */
export const CONTINUED_JOB_POLL_SECONDS = 60;

/**
 * What the SDK integration's DescribeExecution raises that can succeed later (`ServiceName.Error`
 * names, https://docs.aws.amazon.com/step-functions/latest/dg/supported-services-awssdk.html).
 */
const DESCRIBE_RETRY_ERRORS: readonly string[] = [
  'Sfn.ThrottlingException',
  'Sfn.KmsThrottlingException',
  'Sfn.SfnException',
];

/** Where the successor's status is kept between two looks. */
const CONTINUED_PATH = '$.continued';
/** A one-job run's output when it continued as new (`definition.ts`, "Continued in new execution"). */
const SUCCESSOR_ARN = '$.output.executionArn';

/** The Step Functions statuses of an execution still going on. */
const STILL_RUNNING = ['RUNNING', 'PENDING_REDRIVE'];

/**
 * The follow-up loop, entered after "Restart job" succeeded with `$` a `FleetJobResult`
 * (`{ job, namespace, fleet, executionArn, output }`). It ends at `done` with the same shape,
 * `output` the run summary of the chain's last execution. A failed successor fails the item
 * with its own `Error` and `Cause` (the run summary's text), which `lib/fleet/job-end.ts` reads
 * as it reads any failed item whose cause is not a DescribeExecution; a stopped or timed-out one,
 * or one that cannot be described, goes to `failed` with `$.error.Cause` saying so.
 *
 * Not the DescribeExecution JSON a failed `.sync` child gives: building it takes
 * `States.JsonToString`, and aws-local-stepfunctions strips every backslash from an intrinsic's
 * string result, so the local engine would hand on JSON that is not JSON.
 * `executionArn` stays the first execution's: the one the fleet named (and a retry finds), from
 * which the console follows the chain.
 */
export function followContinuedJob(
  scope: Construct,
  restartStateMachine: sfn.IStateMachine,
  done: sfn.IChainable,
  failed: sfn.IChainable,
): sfn.Choice {
  // DescribeExecution on the one-job state machine's executions only.
  // (as the `.sync` task's own grant: the name read from the state machine's ARN).
  const stack = Stack.of(scope);
  const name = stack.splitArn(
    restartStateMachine.stateMachineArn,
    ArnFormat.COLON_RESOURCE_NAME,
  ).resourceName;
  const executions = stack.formatArn({
    service: 'states',
    resource: 'execution',
    arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    resourceName: `${name}:*`,
  });
  const describe = (
    id: string,
    arnPath: string,
    resultSelector: Record<string, unknown>,
    resultPath: string,
  ) => {
    const task = new tasks.CallAwsService(scope, id, {
      service: 'sfn',
      action: 'describeExecution',
      iamAction: 'states:DescribeExecution',
      iamResources: [executions],
      parameters: { ExecutionArn: sfn.JsonPath.stringAt(arnPath) },
      // Only what the loop reads: the successor's Input (the one-job run's whole state) never
      // enters the item's state.
      resultSelector,
      resultPath,
    });
    task.addRetry(retryWithBackoff(DESCRIBE_RETRY_ERRORS));
    return task;
  };

  const jobContinued = new sfn.Choice(scope, ContinuationStates.jobContinued);
  const wait = new sfn.Wait(scope, ContinuationStates.waitForContinuedJob, {
    time: sfn.WaitTime.duration(Duration.seconds(CONTINUED_JOB_POLL_SECONDS)),
  });
  const readStatus = describe(
    ContinuationStates.readContinuedJob,
    SUCCESSOR_ARN,
    { 'Status.$': '$.Status', 'ExecutionArn.$': '$.ExecutionArn' },
    CONTINUED_PATH,
  );
  // The SDK integration returns `Output` as a string (unlike `.sync:2`).
  const readOutput = describe(
    ContinuationStates.readContinuedOutput,
    `${CONTINUED_PATH}.ExecutionArn`,
    { 'output.$': 'States.StringToJson($.Output)' },
    CONTINUED_PATH,
  );
  const takeOutput = new sfn.Pass(scope, ContinuationStates.takeContinuedOutput, {
    parameters: {
      'job.$': '$.job',
      'namespace.$': '$.namespace',
      'fleet.$': '$.fleet',
      'executionArn.$': '$.executionArn',
      'output.$': `${CONTINUED_PATH}.output`,
    },
  });
  const readError = describe(
    ContinuationStates.readContinuedError,
    `${CONTINUED_PATH}.ExecutionArn`,
    { 'Error.$': '$.Error', 'Cause.$': '$.Cause' },
    CONTINUED_PATH,
  );
  // Every Fail state of the one-job workflow names an Error and a Cause (`definition.ts`), as do
  // Step Functions' own `States.*` failures, so both paths are there. A describe still failing
  // after its retries fails the job with the SDK's error.
  readError.addCatch(failed, { errors: [sfn.Errors.ALL], resultPath: ERROR_RESULT_PATH });
  const continuedFailed = new sfn.Fail(scope, ContinuationStates.continuedJobFailed, {
    errorPath: `${CONTINUED_PATH}.Error`,
    causePath: `${CONTINUED_PATH}.Cause`,
  });
  // ARNs and status names only: no character an intrinsic's result could mangle.
  const stopped = new sfn.Pass(scope, ContinuationStates.continuedJobStopped, {
    parameters: {
      'Cause.$': `States.Format('Execution {} ended {}', ${CONTINUED_PATH}.ExecutionArn, ${CONTINUED_PATH}.Status)`,
    },
    resultPath: ERROR_RESULT_PATH,
  });

  const status = `${CONTINUED_PATH}.Status`;
  const statusChoice = new sfn.Choice(scope, ContinuationStates.continuedJobStatus)
    .when(sfn.Condition.or(...STILL_RUNNING.map((s) => sfn.Condition.stringEquals(status, s))), wait)
    .when(sfn.Condition.stringEquals(status, 'SUCCEEDED'), readOutput)
    .when(sfn.Condition.stringEquals(status, 'FAILED'), readError)
    .otherwise(stopped);
  wait.next(readStatus).next(statusChoice);
  readOutput.next(takeOutput).next(jobContinued);
  readError.next(continuedFailed);
  stopped.next(failed);

  // A run summary has an `outcome`; a hand-over only the successor's ARN. A chain may continue again.
  // `Not` of `IsPresent: true` rather than `IsPresent: false`: the same rule on AWS, and
  // aws-local-stepfunctions (the local engine) never matches `IsPresent: false` on a missing path.
  return jobContinued
    .when(
      sfn.Condition.and(
        sfn.Condition.isPresent(SUCCESSOR_ARN),
        sfn.Condition.not(sfn.Condition.isPresent('$.output.outcome')),
      ),
      wait,
    )
    .otherwise(done);
}
