/**
 * How to tell an AWS SDK failure worth retrying (throttling, a service-side fault, a dropped
 * connection) from one that would only fail again: one rule for the handlers (whose Retry matches
 * it as AwsTransientError) and for the terminal's own AWS calls.
 */

/** Error codes that mean "slow down", whatever the service. */
const THROTTLING_CODES = new Set([
  'ThrottlingException',
  'Throttling',
  'TooManyRequestsException',
  'RequestLimitExceeded',
  'ProvisionedThroughputExceededException',
]);

/**
 * Node's codes (and the SDK's names) for a request that never got an answer: DNS that does not
 * resolve (yet), a network or host out of reach, a connection reset or refused, a timeout. Each
 * can pass on its own (Wi-Fi back, VPN up), so none of them is an answer about the call.
 */
const NETWORK_CODES = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
]);

/** Error codes that mean "try again", whatever the service. */
const RETRYABLE_CODES = new Set([
  ...THROTTLING_CODES,
  ...NETWORK_CODES,
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'InternalServerError',
  'InternalFailure',
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

/** Whether AWS asked this caller to slow down (as opposed to failing or being out of reach). */
export function isAwsThrottlingError(error: unknown): boolean {
  const retryable = (error as AwsErrorShape | null)?.$retryable as { throttling?: unknown } | undefined;
  return THROTTLING_CODES.has(awsErrorCode(error)) || retryable?.throttling === true;
}

/** Whether the call never reached AWS or its answer never came back (DNS, routes, resets, timeouts). */
export function isNetworkError(error: unknown): boolean {
  return NETWORK_CODES.has(awsErrorCode(error));
}
