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
  return AbortSignal.timeout(Math.max(0, context.getRemainingTimeInMillis() - marginMs));
}
