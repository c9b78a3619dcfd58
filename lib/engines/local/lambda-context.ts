/**
 * The Lambda context a local invocation gets: what the handlers read from it on Lambda (their
 * function's name, a request id, the time left before the function's timeout).
 */
import type { Context } from 'aws-lambda';
import { localUuid } from './private/local-uuid';

/** A context for one invocation of `functionName` that may run `budgetMs`. */
export function lambdaContext(functionName: string, budgetMs: number): Context {
  const deadline = Date.now() + budgetMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
    // Not `node:crypto`'s (about 7 ms at a local run's start) nor the global Web Crypto's (its
    // first touch loads Node's webcrypto modules): it names the invocation, and guards nothing.
    awsRequestId: localUuid(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
