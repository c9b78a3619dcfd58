/**
 * Task "Resume run": the first state of a continued execution. Takes the previous execution's
 * state, counts this execution, and restarts the per-execution batch counter; the run id (lock
 * owner, plan-store prefix) stays the first execution's. The job's lock is told that this
 * execution runs the run now, so that a run asking whether its holder still runs asks this one.
 *
 * An execution whose input carries a `continuation` skips "Validate input" and "Lock job", so the
 * continuation is checked here before anything is touched: its options must validate as a new
 * run's do, and its run must hold the job's lock (a hand-over happens while the run holds it).
 * Anything else is refused as invalid input: no lock is renewed or released, no Nomad call made.
 */
import { RestartValidationError, validateExecutionInput } from '../lib/restart';
import { toRestartInput } from '../lib/restart/input';
import { leaseOf, lockKeyOf } from '../lib/steps/lock/job-locks';
import { jobLockFromEnv, lockLeaseSeconds } from '../lib/stores/from-env';
import { continuationNamePrefix } from '../lib/workflow/continuation-name';
import { InvalidInputError, StepPayloadError } from '../lib/workflow/errors';
import type { PlanRef, WorkflowState } from '../lib/workflow/payloads';
import { decodeWorkflowState, requirePlanned } from './private/decode-state';
import { logger } from './private/logger';
import { stepHandler } from './private/step-handler';

/** What every refusal of a continuation ends with: the way out that works. */
const NOT_A_HAND_OVER =
  'only "Continue as new execution" starts an execution with a "continuation"; start a new run with the job\'s options instead';

/** Refuses a continuation no hand-over made: options a new run could not have, or a run without the job. */
async function refuseForgedContinuation(state: WorkflowState, plan: PlanRef): Promise<void> {
  try {
    validateExecutionInput(toRestartInput(state.options));
  } catch (err) {
    const why =
      err instanceof RestartValidationError ? err.message : 'its "options" are not the options of a run';
    throw new InvalidInputError(`Invalid continuation: ${why}; ${NOT_A_HAND_OVER}`, { cause: err });
  }
  if ((await jobLockFromEnv().held(lockKeyOf(plan), state.run.runId)) === undefined) {
    throw new InvalidInputError(
      `Invalid continuation: run "${state.run.runId}" does not hold the lock of job "${plan.jobId}" ` +
        `in namespace "${plan.namespace}"; ${NOT_A_HAND_OVER}`,
    );
  }
}

const resumeRun = async (event: unknown): Promise<WorkflowState> => {
  const executionId = (event as { executionId?: unknown } | null)?.executionId;
  if (typeof executionId !== 'string' || executionId === '') {
    throw new StepPayloadError('Task input has no "executionId": the state machine passes $$.Execution.Id');
  }
  const state = decodeWorkflowState((event as { continuation?: unknown }).continuation);
  const { plan, progress } = requirePlanned(state);
  await refuseForgedContinuation(state, plan);
  const run = {
    // A state from before the prefix: the same one Validate input would have written.
    continuationPrefix: continuationNamePrefix(state.run.runId, state.options.job),
    ...state.run,
    executionId,
    executionNumber: state.run.executionNumber + 1,
  };
  // A lock lost from here on is found at the next safe point, which stops the run there.
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
