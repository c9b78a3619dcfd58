/**
 * A clock for the steps of a run through the local engine that moves 1 ms as each step starts
 * (as on AWS, no two steps run at the same ms: "Ask question" takes a question asked at the
 * same ms as an earlier one for a retry of it, lambdas/ask.ts) and `batchMs` while a batch
 * restarts, whatever the machine's speed. A test whose run must read its run-control request at a
 * given safe point (read at most once a second: lib/steps/lock/control-read.ts) spaces its
 * batches a second apart with it, whatever the speed of the machine running the steps.
 */
import type { InvocationInterceptor } from '../../../../lib/engines/local/engine';
import { TaskStates } from '../../../../lib/workflow/state-names';
import type { WorkflowRunOptions } from './workflow-harness';

/** Batches a second apart: every safe point after the first reads the run's request. */
export const SECOND_BATCHES_MS = 1000;

/**
 * The run options of a run whose batches take `batchMs` each on the steps' clock, starting now;
 * `intercept` (a test acting at a step) still wraps every invocation.
 */
export function batchClock(
  batchMs: number,
  intercept: InvocationInterceptor = (_state, invoke) => invoke(),
): Required<Pick<WorkflowRunOptions, 'now' | 'interceptInvocation'>> {
  let now = Date.now();
  return {
    now: () => now,
    interceptInvocation: async (state, invoke) => {
      now += 1;
      const out = await intercept(state, invoke);
      if (state === TaskStates.restartBatch || state === TaskStates.stopAllocations) now += batchMs;
      return out;
    },
  };
}
