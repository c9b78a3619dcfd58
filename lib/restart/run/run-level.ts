/**
 * Telling the run-level events (issue #40) from the per-allocation ones: a step keeps them past its
 * event cap, and the Lambdas turn them into metrics.
 */
import type { ProgressEvent } from '../events';
import type { RunLevelEvent } from './run-events';

const RUN_LEVEL_TYPES: ReadonlySet<string> = new Set<RunLevelEvent['type']>([
  'run-started',
  'batch-finished',
  'question-waited',
  'run-ended',
]);

/** Whether `event` is one of the run-level events (`run-started`, `batch-finished`, ...). */
export function isRunLevelEvent(event: ProgressEvent): event is RunLevelEvent {
  return RUN_LEVEL_TYPES.has(event.type);
}
