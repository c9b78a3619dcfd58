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
 * Errors worth retrying when starting the continued execution: the account's limit of running
 * executions (others finish), and throttling of the API or of the KMS key that encrypts
 * executions. The rest of what `StartExecution` raises (invalid input, a deleted state machine)
 * would only fail again; `ExecutionAlreadyExists` means the hand-over already happened.
 */
export const START_EXECUTION_RETRY_ERRORS: readonly string[] = [
  'StepFunctions.ExecutionLimitExceededException',
  'StepFunctions.ThrottlingException',
  'StepFunctions.KmsThrottlingException',
];

/** What `StartExecution` raises when an execution of that name exists: the hand-over happened. */
export const EXECUTION_ALREADY_EXISTS = 'StepFunctions.ExecutionAlreadyExistsException';

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
