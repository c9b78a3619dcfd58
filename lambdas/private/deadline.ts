/**
 * The signal a step watches to return before its Lambda times out, with time kept back to shape the result.
 */
import { setMaxListeners } from 'node:events';
import type { Context } from 'aws-lambda';

/** Time kept back from the Lambda timeout to shape and return the result. */
export const DEFAULT_SAFETY_MARGIN_MS = 10_000;

/**
 * An `AbortSignal` that fires `marginMs` before the invocation must end, so a step (an await
 * slice above all) returns its cursor instead of being killed mid-call. Fires at once when less
 * than the margin is left.
 */
export function deadlineSignal(
  context: Pick<Context, 'getRemainingTimeInMillis'>,
  marginMs: number = DEFAULT_SAFETY_MARGIN_MS,
): AbortSignal {
  const signal = AbortSignal.timeout(Math.max(0, context.getRemainingTimeInMillis() - marginMs));
  // Every concurrent Nomad request of a batch listens to it: a batch of 50 is not a leak, and
  // Node's warning about it would land on stderr, among Nomad's lines.
  setMaxListeners(0, signal);
  return signal;
}
