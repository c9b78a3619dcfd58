/**
 * One Lambda Task state of the graph, with the project's payload, retry and timeout conventions.
 */
import { Duration } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import type { Construct } from 'constructs';
import { REDRIVE_COUNT_FIELD, REDRIVE_COUNT_PATH, STEP_STATE_FIELD } from '../redrive';
import { ERROR_RESULT_PATH, IDEMPOTENT_STEP_RETRY_ERRORS, retryWithBackoff } from './retry-catch';

/** Options of one Lambda Task state of the restart graph. */
export interface LambdaStepOptions {
  /** The function; the Task's timeout is derived from its own (see {@link taskTimeoutFor}). */
  readonly fn: lambda.Function;
  /** Where the failure path starts (release the lock, then fail). */
  readonly onError: sfn.IChainable;
  /**
   * @default - the whole state (`$`), with the execution's redrive count beside it
   * (`{ state, redriveCount }`: a redriven execution is refused, see `redrive.ts`)
   */
  readonly payload?: sfn.TaskInput;
  /** Extra catchers, tried before the catch-all. @default - none */
  readonly catches?: ReadonlyArray<{ readonly errors: string[]; readonly next: sfn.IChainable }>;
  /** @default - the result replaces the state (the handler returns the next state) */
  readonly resultPath?: string;
}

/** The default payload: the state, and how many times the execution was redriven. */
const stateWithRedriveCount = sfn.TaskInput.fromObject({
  [STEP_STATE_FIELD]: sfn.JsonPath.entirePayload,
  [REDRIVE_COUNT_FIELD]: sfn.JsonPath.numberAt(REDRIVE_COUNT_PATH),
});

/** Lambda's own default timeout, for a function that does not set one. */
const LAMBDA_DEFAULT_TIMEOUT = Duration.seconds(3);
/** Step Functions' time for the invoke on top of the function's own limit (queueing, cold start). */
const INVOKE_MARGIN = Duration.seconds(30);

/**
 * A Task's timeout, from its own function's and nothing else: always longer, so the function ends
 * (or times out itself, with Lambda's error) before Step Functions gives up on it and the run
 * moves on while it is still calling Nomad.
 */
export function taskTimeoutFor(fn: lambda.Function): sfn.Timeout {
  return sfn.Timeout.duration((fn.timeout ?? LAMBDA_DEFAULT_TIMEOUT).plus(INVOKE_MARGIN));
}

/**
 * A Lambda Task that returns the next state: `payloadResponseOnly`, so the state input is the
 * handler's event and its return value the result (a local engine can bind the handler
 * directly), with Retry (backoff + jitter) and a catch-all into the failure path.
 */
export function lambdaStep(scope: Construct, id: string, options: LambdaStepOptions): tasks.LambdaInvoke {
  const task = new tasks.LambdaInvoke(scope, id, {
    lambdaFunction: options.fn,
    payloadResponseOnly: true,
    // Our own Retry below replaces CDK's default one so every task has the same policy.
    retryOnServiceExceptions: false,
    // No explicit `ResultPath: "$"`: it is the default, and aws-local-stepfunctions 3 would
    // write the result under a key named "$" instead of replacing the state.
    ...(options.resultPath === undefined ? {} : { resultPath: options.resultPath }),
    taskTimeout: taskTimeoutFor(options.fn),
    payload: options.payload ?? stateWithRedriveCount,
  });
  task.addRetry(retryWithBackoff(IDEMPOTENT_STEP_RETRY_ERRORS));
  for (const c of options.catches ?? []) {
    task.addCatch(c.next, { errors: c.errors, resultPath: ERROR_RESULT_PATH });
  }
  task.addCatch(options.onError, { errors: [sfn.Errors.ALL], resultPath: ERROR_RESULT_PATH });
  return task;
}
