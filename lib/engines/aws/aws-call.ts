/**
 * One AWS call with the engine's retry policy and error wording. The SDK retries too, but a
 * long-running follow loop meets throttling and network drops far more often than one CLI
 * request does: this layer retries throttling, service-side failures and the network with
 * capped backoff, then turns what is left into an {@link AwsCallError} whose message names
 * what was being done, the AWS error code, AWS's own message and, when access was denied, the
 * IAM action that is missing (no stack trace, no token).
 */
import pRetry, { AbortError } from 'p-retry';
import { awsErrorCode, isTransientAwsError } from '../../stores/aws-errors';
import { AwsCallError, isAccessDeniedCode } from './errors';

/** How failed AWS calls are retried. */
export interface AwsRetryOptions {
  /** Retries after the first attempt; `Infinity` for a call that must not give up. @default 5 */
  readonly retries?: number;
  /** First backoff in ms; doubles per retry, with jitter. @default 250 */
  readonly minTimeoutMs?: number;
  /** Longest backoff in ms. @default 20000 */
  readonly maxTimeoutMs?: number;
  /** Told of each retryable failure before it is retried (`attempt` counts from 1). */
  readonly onRetry?: (error: unknown, attempt: number) => void;
}

/**
 * Longest pause between two attempts of a call that must not give up: after an outage the
 * command is following again at most this long after AWS answers.
 */
export const PATIENT_MAX_BACKOFF_MS = 10_000;

/** The policy of calls made while the execution may still run: never give up on a transient failure. */
export function patient(retry: AwsRetryOptions = {}): AwsRetryOptions {
  return { maxTimeoutMs: PATIENT_MAX_BACKOFF_MS, ...retry, retries: Number.POSITIVE_INFINITY };
}

/** What a call is, for its error message. */
export interface AwsCallName {
  /** The IAM action the call needs, e.g. `states:StartExecution` (named when access is denied). */
  readonly action: string;
  /** What is being done: `starting an execution of "<arn>"`. */
  readonly what: string;
}

function messageOf(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message.trim() : '';
}

/**
 * Runs `call`, retrying retryable failures.
 *
 * @throws AwsCallError `Error <what>: <code>: <AWS message>`, plus `; this needs the IAM action
 *   <action>` when access was denied
 */
export async function awsCall<T>(
  name: AwsCallName,
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
        maxTimeout: retry.maxTimeoutMs ?? 20_000,
        factor: 2,
        randomize: true,
        onFailedAttempt: ({ error, attemptNumber, retriesLeft }) => {
          if (retriesLeft > 0) retry.onRetry?.(error, attemptNumber);
        },
      },
    );
  } catch (error) {
    const code = awsErrorCode(error);
    const message = messageOf(error);
    const detail = message === '' || message === code ? '' : `: ${message}`;
    const missing = isAccessDeniedCode(code) ? `; this needs the IAM action ${name.action}` : '';
    throw new AwsCallError(name.action, code, `Error ${name.what}: ${code}${detail}${missing}`, {
      cause: error,
    });
  }
}
