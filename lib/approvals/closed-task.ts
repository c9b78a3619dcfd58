/**
 * What `SendTaskSuccess` answers for a task token whose task no longer waits: one rule for chat's
 * answers and the terminal's
 * (https://docs.aws.amazon.com/step-functions/latest/apireference/API_SendTaskSuccess.html).
 */

/**
 * The code for a token whose task has closed, by timing out or by taking an answer: only the
 * execution's history tells which.
 */
export const TASK_TIMED_OUT = 'TaskTimedOut';

const CLOSED_TASK_CODES: ReadonlySet<string> = new Set([TASK_TIMED_OUT, 'InvalidToken', 'TaskDoesNotExist']);

/** Whether a `SendTaskSuccess` error code means the execution no longer waits on this token. */
export function isClosedTaskCode(code: string): boolean {
  return CLOSED_TASK_CODES.has(code);
}
