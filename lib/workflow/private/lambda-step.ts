/**
 * One Lambda Task state of the graph, with the project's payload, retry and timeout conventions.
 */
import { Duration } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import type { Construct } from 'constructs';
import { ERROR_RESULT_PATH, LAMBDA_RETRY_ERRORS, retryWithBackoff } from './retry-catch';

/** Options of one Lambda Task state of the restart graph. */
export interface LambdaStepOptions {
  readonly fn: IFunction;
  /** Where the failure path starts (release the lock, then fail). */
  readonly onError: sfn.IChainable;
  /** @default - the whole state (`$`) is the payload */
  readonly payload?: sfn.TaskInput;
  /** How long the Lambda may run; the task times out a little later. @default Duration.seconds(30) */
  readonly functionTimeout?: Duration;
  /** Extra catchers, tried before the catch-all. @default - none */
  readonly catches?: ReadonlyArray<{ readonly errors: string[]; readonly next: sfn.IChainable }>;
  /** @default - the result replaces the state (the handler returns the next state) */
  readonly resultPath?: string;
}

/**
 * A Lambda Task that returns the next state: `payloadResponseOnly`, so the state input is the
 * handler's event and its return value the result (a local engine can bind the handler
 * directly), with Retry (backoff + jitter) and a catch-all into the failure path.
 */
export function lambdaStep(scope: Construct, id: string, options: LambdaStepOptions): tasks.LambdaInvoke {
  const functionTimeout = options.functionTimeout ?? Duration.seconds(30);
  const task = new tasks.LambdaInvoke(scope, id, {
    lambdaFunction: options.fn,
    payloadResponseOnly: true,
    // Our own Retry below replaces CDK's default one so every task has the same policy.
    retryOnServiceExceptions: false,
    // No explicit `ResultPath: "$"`: it is the default, and aws-local-stepfunctions 3 would
    // write the result under a key named "$" instead of replacing the state.
    ...(options.resultPath === undefined ? {} : { resultPath: options.resultPath }),
    taskTimeout: sfn.Timeout.duration(functionTimeout.plus(Duration.seconds(30))),
    ...(options.payload === undefined ? {} : { payload: options.payload }),
  });
  task.addRetry(retryWithBackoff(LAMBDA_RETRY_ERRORS));
  for (const c of options.catches ?? []) {
    task.addCatch(c.next, { errors: c.errors, resultPath: ERROR_RESULT_PATH });
  }
  task.addCatch(options.onError, { errors: [sfn.Errors.ALL], resultPath: ERROR_RESULT_PATH });
  return task;
}
