/**
 * Task "Resume run": the first state of a continued execution. Takes the previous execution's
 * state, counts this execution, and restarts the per-execution batch counter; the run id (lock
 * owner, plan-store prefix) stays the first execution's. The job's lock is told that this
 * execution runs the run now, so that a run asking whether its holder still runs asks this one.
 */
import { leaseOf, lockKeyOf } from '../lib/steps/lock/job-locks';
import { jobLockFromEnv, lockLeaseSeconds } from '../lib/stores/from-env';
import { StepPayloadError } from '../lib/workflow/errors';
import type { WorkflowState } from '../lib/workflow/payloads';
import { decodeWorkflowState, requirePlanned } from './private/decode-state';
import { logger } from './private/logger';
import { stepHandler } from './private/step-handler';

const resumeRun = async (event: unknown): Promise<WorkflowState> => {
  const executionId = (event as { executionId?: unknown } | null)?.executionId;
  if (typeof executionId !== 'string' || executionId === '') {
    throw new StepPayloadError('Task input has no "executionId": the state machine passes $$.Execution.Id');
  }
  const state = decodeWorkflowState((event as { continuation?: unknown }).continuation);
  const { plan, progress } = requirePlanned(state);
  const run = { ...state.run, executionId, executionNumber: state.run.executionNumber + 1 };
  // A lock lost meanwhile is found at the next safe point, which stops the run there.
  await jobLockFromEnv().extend(lockKeyOf(plan), leaseOf(run, lockLeaseSeconds()));
  logger.info('Run resumed', {
    runId: run.runId,
    executionNumber: run.executionNumber,
    nextBatch: progress.nextBatch,
  });
  // A new execution starts its budgets afresh: batches, and await slices of a batch in flight.
  const batch = state.batch === null ? null : { ...state.batch, slicesThisExecution: 0 };
  return { ...state, run, progress: { ...progress, batchesThisExecution: 0 }, batch, events: [] };
};

export const handler = stepHandler(resumeRun, { state: 'resume-run', freshHistory: true });
