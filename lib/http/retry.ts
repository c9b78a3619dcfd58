/**
 * Retries of one HTTP request (to Nomad or Consul): how many, how long between them (full
 * jitter), and that an abort is never retried. Which errors are worth retrying is the caller's call.
 */
import { setTimeout } from 'node:timers/promises';

/** Bounded exponential backoff with full jitter, used for reads only (writes are never retried blindly). */
export interface RetryOptions {
  /** Total attempts, the first included; 1 disables retries. @default 4 */
  attempts?: number;
  /** Upper bound of the first backoff, in ms; it doubles per retry. @default 100 */
  baseDelayMs?: number;
  /** Cap of any one backoff, in ms. @default 2000 */
  maxDelayMs?: number;
}

/** A fully resolved retry policy. */
export interface Backoff {
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

/** The defaults documented on {@link RetryOptions}. */
export const DEFAULT_BACKOFF: Backoff = { attempts: 4, baseDelayMs: 100, maxDelayMs: 2000 };

/** Fills in the defaults; a non-positive or fractional attempt count is clamped to a whole number ≥ 1. */
export function resolveBackoff(options: RetryOptions | undefined): Backoff {
  return {
    attempts: Math.max(1, Math.floor(options?.attempts ?? DEFAULT_BACKOFF.attempts)),
    baseDelayMs: Math.max(0, options?.baseDelayMs ?? DEFAULT_BACKOFF.baseDelayMs),
    maxDelayMs: Math.max(0, options?.maxDelayMs ?? DEFAULT_BACKOFF.maxDelayMs),
  };
}

/**
 * Delay before retry number `retry` (0 for the first retry): "full jitter", a uniform draw
 * below `min(max, base * 2^retry)`. Jitter keeps many Lambdas that failed together (a
 * leader election, a proxy restart) from hammering Nomad in lock-step.
 */
export function backoffDelay(retry: number, backoff: Backoff, random: () => number = Math.random): number {
  const ceiling = Math.min(backoff.maxDelayMs, backoff.baseDelayMs * 2 ** retry);
  return Math.floor(random() * ceiling);
}

/** Waits `ms`; an abort rejects at once with the caller's own abort error. */
async function sleep(ms: number, signal: AbortSignal | undefined, aborted: () => Error): Promise<void> {
  try {
    await setTimeout(ms, undefined, signal === undefined ? {} : { signal });
  } catch {
    throw aborted();
  }
}

/**
 * Runs `attempt` until it succeeds, `shouldRetry` refuses the error, or the attempts run
 * out; the last error is thrown as is. Once `signal` has fired nothing is retried: an error
 * from the attempt is thrown as is, and an abort during a backoff throws `aborted()`.
 */
export async function withRetry<T>(
  attempt: () => Promise<T>,
  shouldRetry: (err: unknown) => boolean,
  backoff: Backoff,
  signal: AbortSignal | undefined,
  aborted: () => Error,
): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (err) {
      if (signal?.aborted === true || retry + 1 >= backoff.attempts || !shouldRetry(err)) {
        throw err;
      }
    }
    await sleep(backoffDelay(retry, backoff), signal, aborted);
  }
}
