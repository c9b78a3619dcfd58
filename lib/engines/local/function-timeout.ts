/**
 * A local invocation ends at its function's timeout, as on Lambda: the Task fails with the error
 * Lambda reports (`Sandbox.Timedout`), whatever the handler is still doing. (Lambda would freeze
 * the handler; in-process it runs on, unobserved.)
 */

/** `run`'s result, or Lambda's timeout error once `timeoutMs` have passed. */
export async function withinFunctionTimeout<T>(run: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`Task timed out after ${(timeoutMs / 1000).toFixed(2)} seconds`);
      reject(Object.assign(error, { name: 'Sandbox.Timedout' }));
    }, timeoutMs);
  });
  try {
    return await Promise.race([run, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
