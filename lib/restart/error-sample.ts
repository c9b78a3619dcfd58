/**
 * How many error messages a workflow state may carry. Step Functions fails an execution whose
 * state passes 256 KiB (`States.DataLimitExceeded`, which no Catch routes) and truncates a Fail
 * state's cause at 32,768 characters, so a state carries a sample of the errors that fits a byte
 * budget, plus how many were left out; the full list stays in the run's record (plan store) and in
 * the lines a terminal that runs the steps itself sees live.
 */

/** UTF-8 bytes of error text one state may carry: under a Fail cause, far under 256 KiB. */
export const STATE_ERROR_BUDGET_BYTES = 24_000;

/**
 * The first `items` that fit `budget` bytes, `sizeOf` each after `start` bytes, and how many were
 * left out: the one rule for every list a state carries (these errors, a step's events).
 */
export function firstThatFit<T>(
  items: readonly T[],
  budget: number,
  sizeOf: (item: T) => number,
  start = 0,
): { kept: T[]; omitted: number } {
  const kept: T[] = [];
  let used = start;
  for (const item of items) {
    used += sizeOf(item);
    if (used > budget) break;
    kept.push(item);
  }
  return { kept, omitted: items.length - kept.length };
}

/** The first `messages` whose text fits `budget`, and how many were left out. */
export function sampleErrors(
  messages: readonly string[],
  budget: number = STATE_ERROR_BUDGET_BYTES,
): { errors: string[]; omitted: number } {
  const { kept, omitted } = firstThatFit(
    messages,
    budget,
    (message) => Buffer.byteLength(message, 'utf8') + 4,
  );
  return { errors: kept, omitted };
}
