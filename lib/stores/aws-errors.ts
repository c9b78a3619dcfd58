/**
 * How to tell an AWS SDK failure worth retrying (throttling, a service-side fault, a dropped
 * connection) from one that would only fail again: one rule for the handlers (whose Retry matches
 * it as AwsTransientError) and for the terminal's own AWS calls.
 */

/** Error codes that mean "slow down" or "try again", whatever the service. */
const RETRYABLE_CODES = new Set([
  'ThrottlingException',
  'Throttling',
  'TooManyRequestsException',
  'RequestLimitExceeded',
  'ProvisionedThroughputExceededException',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'InternalServerError',
  'InternalFailure',
  'RequestTimeout',
  'RequestTimeoutException',
  'TimeoutError',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
]);

interface AwsErrorShape {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  $fault?: unknown;
  $retryable?: unknown;
}

/** The AWS error code of a thrown value (`name` for SDK v3 errors, `code` for Node's). */
export function awsErrorCode(error: unknown): string {
  const e = (error ?? {}) as AwsErrorShape;
  if (typeof e.code === 'string' && e.code !== '') return e.code;
  if (typeof e.name === 'string' && e.name !== '') return e.name;
  return 'UnknownError';
}

/** Whether an AWS call failed in a way that can succeed later (throttling, a service-side fault, the network). */
export function isTransientAwsError(error: unknown): boolean {
  const e = (error ?? {}) as AwsErrorShape;
  return RETRYABLE_CODES.has(awsErrorCode(error)) || e.$fault === 'server' || e.$retryable !== undefined;
}
