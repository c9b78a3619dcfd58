/**
 * Byte budgets of the lists that ride in the workflow state. Step Functions fails an execution
 * whose state passes 256 KiB with `States.DataLimitExceeded`, which no Catch routes (the lock
 * stays held); a count cap does not bound bytes when each entry carries Nomad's text (an error
 * body, a check's output). Each list keeps its first entries within its budget; the whole list
 * goes to the plan store (S3), and the state says where.
 */
import { firstThatFit } from '../restart/error-sample';

/**
 * UTF-8 bytes of progress events one state carries (`events`, and `planEvents` apart). With the
 * error samples (24,000 bytes each, error-sample.ts) in the summary and its text, a 8 KiB cursor
 * and the rest of the state, two of these stay far under 256 KiB.
 */
export const STATE_EVENTS_BUDGET_BYTES = 64 * 1024;

/** Where the events a state could not carry are: their plan-store key, and how many were left out. */
export interface EventsElsewhere {
  readonly key: string;
  readonly omitted: number;
}

/** The first `entries` whose JSON fits `budget` bytes, and how many were left out. */
export function fitToBytes<T>(
  entries: readonly T[],
  budget: number = STATE_EVENTS_BUDGET_BYTES,
): { kept: T[]; omitted: number } {
  // The list's brackets, then each entry and its comma.
  const sizeOf = (entry: T) => Buffer.byteLength(JSON.stringify(entry) ?? 'null', 'utf8') + 1;
  return firstThatFit(entries, budget, sizeOf, 2);
}
