/**
 * The Lambda context a local invocation gets: what the handlers read from it on Lambda (their
 * function's name, a request id, the time left before the function's timeout).
 */
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';

/** A context for one invocation of `functionName` that may run `budgetMs`. */
export function lambdaContext(functionName: string, budgetMs: number): Context {
  const deadline = Date.now() + budgetMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
    // node:crypto's, which the run has loaded already: the global `crypto` is Web Crypto, whose
    // first touch loads Node's whole webcrypto module (~1 ms) for this one call.
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
