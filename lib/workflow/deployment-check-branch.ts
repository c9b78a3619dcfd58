/**
 * The deployment check's states (`deployment-check.ts` says what it proves): validate its input,
 * read the job it names (if any) through the plan function (`deployment-check-reach.ts`: reads
 * only), ask one question through the ask function on a task token, and end with the answer. No
 * state here writes to Nomad, takes a lock or writes a plan.
 */
import { Duration } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import type { Construct } from 'constructs';
import {
  DEPLOYMENT_CHECK_JOB,
  DEPLOYMENT_CHECK_QUESTION,
  DEPLOYMENT_CHECK_REACH_FIELD,
  DEPLOYMENT_CHECK_TIMEOUT_SECONDS,
  REACHED_FIELD,
} from './deployment-check';
import { WORKFLOW_ERROR_NAMES } from './errors';
import { lambdaStep } from './private/lambda-step';
import { ERROR_RESULT_PATH, LAMBDA_RETRY_ERRORS, retryWithBackoff } from './private/retry-catch';
import { FailStates, FlowStates, TaskStates } from './state-names';

/** What {@link deploymentCheckBranch} needs. */
export interface DeploymentCheckBranchProps {
  readonly validateInput: lambda.Function;
  readonly ask: lambda.Function;
  /** Reads the job the check names, from where the Nomad-calling functions run. */
  readonly plan: lambda.Function;
  /** Where refused input goes: the restart's own `InvalidInput` ending. */
  readonly onInvalidInput: sfn.IChainable;
}

/** The check's states, from its input's validation to its end. */
export function deploymentCheckBranch(scope: Construct, props: DeploymentCheckBranchProps): sfn.IChainable {
  const failed = new sfn.Fail(scope, FailStates.deploymentCheckFailed, {
    error: FailStates.deploymentCheckFailed,
    causePath: '$.error.Cause',
  });
  const validate = lambdaStep(scope, TaskStates.validateDeploymentCheck, {
    fn: props.validateInput,
    onError: failed,
    payload: sfn.TaskInput.fromObject({
      input: sfn.JsonPath.entirePayload,
      executionId: sfn.JsonPath.executionId,
      startTime: sfn.JsonPath.executionStartTime,
      // Tells the validate-input function to read the input as a check's, not a restart's.
      deploymentCheck: true,
    }),
    catches: [{ errors: [WORKFLOW_ERROR_NAMES.invalidInput], next: props.onInvalidInput }],
  });
  const ask = new tasks.LambdaInvoke(scope, TaskStates.askDeploymentCheck, {
    lambdaFunction: props.ask,
    integrationPattern: sfn.IntegrationPattern.WAIT_FOR_TASK_TOKEN,
    // The ask event the restart's question sends, with the check's own job and question.
    payload: sfn.TaskInput.fromObject({
      taskToken: sfn.JsonPath.taskToken,
      executionId: sfn.JsonPath.executionId,
      runId: sfn.JsonPath.stringAt('$.run.runId'),
      jobId: DEPLOYMENT_CHECK_JOB,
      namespace: '',
      question: DEPLOYMENT_CHECK_QUESTION,
      timeoutSeconds: DEPLOYMENT_CHECK_TIMEOUT_SECONDS,
    }),
    retryOnServiceExceptions: false,
    resultPath: '$.answer',
    taskTimeout: sfn.Timeout.duration(Duration.seconds(DEPLOYMENT_CHECK_TIMEOUT_SECONDS)),
  });
  ask.addRetry(retryWithBackoff(LAMBDA_RETRY_ERRORS));
  ask.addCatch(failed, { errors: [sfn.Errors.ALL], resultPath: ERROR_RESULT_PATH });
  ask.next(new sfn.Succeed(scope, FlowStates.deploymentCheckAnswered, { outputPath: '$.answer' }));
  // A read that fails is the check's finding, not its end: its error rides on to the question,
  // and `nomad-restart check` reads either from the step's exit in the history.
  const reach = lambdaStep(scope, TaskStates.reachDeploymentCheck, {
    fn: props.plan,
    onError: ask,
    resultPath: `$.${REACHED_FIELD}`,
    payload: sfn.TaskInput.fromObject({
      deploymentCheck: true,
      reach: sfn.JsonPath.objectAt(`$.${DEPLOYMENT_CHECK_REACH_FIELD}`),
    }),
  });
  reach.next(ask);
  return validate.next(
    new sfn.Choice(scope, FlowStates.deploymentCheckReaches)
      .when(sfn.Condition.isPresent(`$.${DEPLOYMENT_CHECK_REACH_FIELD}`), reach)
      .otherwise(ask),
  );
}
