/**
 * The name "Continue as new execution" gives the execution it starts: the SHA-1 of the run's
 * identity (its first execution's ARN, so any length fits Step Functions' 80 characters) and the
 * number of the execution started. The definition computes it with `States.Hash`; the terminal
 * computes the same name to find a successor the history has not recorded yet (a stop that lands
 * while the hand-over is in flight) and a run's earlier executions (`attach` to a later one).
 */
import { createHash } from 'node:crypto';

/** The `States.Hash` algorithm of the successor's name. */
export const CONTINUATION_NAME_HASH = 'SHA-1';

/** The name of execution number `executionNumber` (2 or more) of the run `runId`. */
export function continuationExecutionName(runId: string, executionNumber: number): string {
  return `${createHash('sha1').update(runId, 'utf8').digest('hex')}-${executionNumber}`;
}
