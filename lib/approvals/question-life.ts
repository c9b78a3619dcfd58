/**
 * How long a question's item lives: as long as the question can be answered (its timeout), plus a
 * margin in which a late answerer is told the question closed instead of finding nothing.
 * DynamoDB deletes an expired item some time after `expiresAt`, never before
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/howitworks-ttl.html).
 */

/** Kept after the question times out, so a late answer gets a reason, not a 404. */
export const QUESTION_EXPIRY_MARGIN_SECONDS = 24 * 60 * 60;

/**
 * The longest question the workflow supports: a Standard execution lives at most one year
 * (https://docs.aws.amazon.com/step-functions/latest/dg/service-quotas.html), so no question
 * in it can wait longer. The construct refuses a longer `approvalTimeout` at synth.
 */
export const MAX_APPROVAL_TIMEOUT_SECONDS = 365 * 24 * 60 * 60;

/** When the question times out (when known) and when its item may be deleted, in Unix seconds. */
export interface QuestionLife {
  readonly timesOutAt?: number;
  readonly expiresAt: number;
}

/**
 * The life of a question asked at `createdAt` (Unix seconds) that waits `timeoutSeconds`; without
 * one (a definition from before the ask step passed it), `fallbackTtlSeconds` from its asking.
 */
export function questionLife(
  createdAt: number,
  timeoutSeconds: number | undefined,
  fallbackTtlSeconds: number,
): QuestionLife {
  if (timeoutSeconds === undefined) return { expiresAt: createdAt + fallbackTtlSeconds };
  const timesOutAt = createdAt + timeoutSeconds;
  return { timesOutAt, expiresAt: timesOutAt + QUESTION_EXPIRY_MARGIN_SECONDS };
}
