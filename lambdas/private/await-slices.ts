/**
 * How the await handlers ("Await batch", "Await health") count their slices: the graph continues
 * as new once an execution has run its budget of slices for one batch.
 */
import type { BatchState } from '../../lib/workflow/payloads';

/** Slices this execution has run for the batch after one more: back to 0 once it is over. */
export function slicesAfter(batch: BatchState, done: boolean): number {
  return done ? 0 : (batch.slicesThisExecution ?? 0) + 1;
}
