/**
 * How many error messages a workflow state may carry. Step Functions fails an execution whose
 * state passes 256 KiB (`States.DataLimitExceeded`, which no Catch routes) and truncates a Fail
 * state's cause at 32,768 characters, so a state carries a sample of the errors that fits a byte
 * budget, plus how many were left out; the full list stays in the run's record (plan store) and in
 * the lines a terminal that runs the steps itself sees live.
 */

/** UTF-8 bytes of error text one state may carry: under a Fail cause, far under 256 KiB. */
export const STATE_ERROR_BUDGET_BYTES = 24_000;

/** The first `messages` whose text fits `budget`, and how many were left out. */
export function sampleErrors(
  messages: readonly string[],
  budget: number = STATE_ERROR_BUDGET_BYTES,
): { errors: string[]; omitted: number } {
  const errors: string[] = [];
  let used = 0;
  for (const message of messages) {
    used += Buffer.byteLength(message, 'utf8') + 4;
    if (used > budget) break;
    errors.push(message);
  }
  return { errors, omitted: messages.length - errors.length };
}
