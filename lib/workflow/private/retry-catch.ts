/**
 * Which errors each kind of Task retries, and where a caught error is written.
 */
import { Duration } from 'aws-cdk-lib';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { TRANSIENT_NOMAD_ERROR_NAMES } from '../../nomad/errors';
import { WORKFLOW_ERROR_NAMES } from '../errors';

/**
 * Errors worth retrying on any Lambda task: the Lambda service failing or throttling us, and a
 * Nomad call that failed in a way that can succeed later. Everything else is either routed
 * (named workflow errors) or a bug, and retrying would only repeat it.
 */
export const LAMBDA_RETRY_ERRORS: readonly string[] = [
  // The function's process died mid-invocation (a crash, out of memory): every step is
  // idempotent (its journal says what was done), so running it again redoes only the rest.
  'Lambda.Unknown',
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
  'Lambda.TooManyRequestsException',
  'Lambda.ClientExecutionTimeoutException',
  WORKFLOW_ERROR_NAMES.nomadTransient,
  WORKFLOW_ERROR_NAMES.awsTransient,
  ...TRANSIENT_NOMAD_ERROR_NAMES,
];

/**
 * What a step's function reports when it ends without an answer: Lambda's own timeout
 * (`Sandbox.Timedout`, the local engine raises the same) and a runtime process that exited
 * (`Runtime.ExitError`: killed, out of memory). Only for the idempotent Lambda steps, whose
 * journal makes a second run redo only what the first did not finish; never for the question,
 * whose retry would park and announce it a second time.
 * (https://docs.aws.amazon.com/lambda/latest/dg/invocation-retries.html)
 */
export const FUNCTION_END_RETRY_ERRORS: readonly string[] = ['Sandbox.Timedout', 'Runtime.ExitError'];

/** Errors an idempotent Lambda step retries: {@link LAMBDA_RETRY_ERRORS} and {@link FUNCTION_END_RETRY_ERRORS}. */
export const IDEMPOTENT_STEP_RETRY_ERRORS: readonly string[] = [
  ...LAMBDA_RETRY_ERRORS,
  ...FUNCTION_END_RETRY_ERRORS,
];

/**
 * Errors worth retrying when starting the continued execution: the account's limit of running
 * executions (others finish), throttling of the API or of the KMS key that encrypts executions,
 * and the integration's generic service and client errors. The limit is named both ways: AWS's
 * page for the optimized integration spells it `StepFunctions.ExecutionLimitExceeded`, the API's
 * exception is `ExecutionLimitExceededException`, and ASL matches names exactly
 * (https://docs.aws.amazon.com/step-functions/latest/dg/connect-stepfunctions.html). Retrying
 * is safe: the start is idempotent for the same name and input. The rest of what
 * `StartExecution` raises (invalid input, a deleted state machine) would only fail again;
 * `ExecutionAlreadyExists` means the hand-over already happened.
 */
export const START_EXECUTION_RETRY_ERRORS: readonly string[] = [
  'StepFunctions.ExecutionLimitExceeded',
  'StepFunctions.ExecutionLimitExceededException',
  'StepFunctions.ThrottlingException',
  'StepFunctions.KmsThrottlingException',
  'StepFunctions.AWSStepFunctionsException',
  'StepFunctions.SdkClientException',
];

/**
 * Exponential backoff with full jitter (2 s, 4 s, 8 s … capped at 60 s, 6 attempts): concurrent
 * executions hitting the same throttle or the same Nomad leader election spread out instead of
 * retrying in lock-step.
 */
export function retryWithBackoff(errors: readonly string[]): sfn.RetryProps {
  return {
    errors: [...errors],
    interval: Duration.seconds(2),
    backoffRate: 2,
    maxAttempts: 6,
    maxDelay: Duration.seconds(60),
    jitterStrategy: sfn.JitterType.FULL,
  };
}

/** Where a `Catch` writes the failure, next to the state it came from. */
export const ERROR_RESULT_PATH = '$.error';
