/**
 * One AWS call with the engine's retry policy and error wording. The SDK retries too, but a
 * long-running follow loop meets throttling more often than one CLI request does: this layer
 * retries throttling and service-side failures with backoff, then turns what is left into an
 * {@link AwsCallError} whose message names what was being done, the AWS error code and AWS's
 * own message (no stack trace, no token).
 */
import pRetry, { AbortError } from 'p-retry';
import { awsErrorCode, isTransientAwsError } from '../../stores/aws-errors';
import { AwsCallError } from './errors';

/** How failed AWS calls are retried. */
export interface AwsRetryOptions {
  /** Retries after the first attempt. @default 5 */
  readonly retries?: number;
  /** First backoff in ms; doubles per retry, with jitter, up to 20 s. @default 250 */
  readonly minTimeoutMs?: number;
}

function messageOf(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message.trim() : '';
}

/**
 * Runs `call`, retrying retryable failures.
 *
 * @param operation the API operation, e.g. `StartExecution` (kept on the error)
 * @param what what is being done, for the message: `starting an execution of "<arn>"`
 * @throws AwsCallError `Error <what>: <code>: <AWS message>`
 */
export async function awsCall<T>(
  operation: string,
  what: string,
  call: () => Promise<T>,
  retry: AwsRetryOptions = {},
): Promise<T> {
  try {
    return await pRetry(
      async () => {
        try {
          return await call();
        } catch (error) {
          // p-retry only retries Errors; anything else, and anything not retryable, ends here.
          if (!(error instanceof Error) || !isTransientAwsError(error)) {
            throw new AbortError(error instanceof Error ? error : new Error(String(error)));
          }
          throw error;
        }
      },
      {
        retries: retry.retries ?? 5,
        minTimeout: retry.minTimeoutMs ?? 250,
        maxTimeout: 20_000,
        factor: 2,
        randomize: true,
      },
    );
  } catch (error) {
    const code = awsErrorCode(error);
    const message = messageOf(error);
    throw new AwsCallError(
      operation,
      code,
      `Error ${what}: ${code}${message === '' || message === code ? '' : `: ${message}`}`,
      { cause: error },
    );
  }
}
