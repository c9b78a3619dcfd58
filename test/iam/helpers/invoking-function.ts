/**
 * Which function's invocation the code running now belongs to: the IAM check (iam-check.ts)
 * evaluates an SDK call against that function's role. Kept apart from the check so that a run
 * that enforces no IAM loads no AWS SDK for it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const currentFunction = new AsyncLocalStorage<string>();

/** Runs `work` as an invocation of the function of handler `functionName` (`release-lock`). */
export function asFunction<T>(functionName: string, work: () => T): T {
  return currentFunction.run(functionName, work);
}

/** The handler id of the invocation running now, if any. */
export function invokingFunction(): string | undefined {
  return currentFunction.getStore();
}
