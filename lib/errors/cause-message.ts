/**
 * The words inside a Step Functions `Cause`. Here, at the bottom, because both the workflow (exit
 * status, run-end notices) and the fleet's summary (a failed child's cause) read causes.
 */

/**
 * The message inside a `Cause`. A Lambda error caught by `Catch` arrives as Lambda's JSON
 * (`{"errorType", "errorMessage", "trace"}`): only `errorMessage` is for people; the trace is not.
 */
export function causeMessage(cause: string): string {
  try {
    const parsed = JSON.parse(cause) as { errorMessage?: unknown } | null;
    if (parsed !== null && typeof parsed === 'object' && typeof parsed.errorMessage === 'string') {
      return parsed.errorMessage;
    }
  } catch {
    // Not JSON: a Fail state's own cause, already plain text.
  }
  return cause;
}
