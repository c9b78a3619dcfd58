/**
 * Tasks "Release lock" and "Release lock after error" (lib/steps/lock/release-lock-step.ts).
 * Tolerates any state, because the failure path can start before a plan exists. It leaves the
 * failure's cause readable for the Fail state that follows (Lambda's error JSON, trace included,
 * becomes its message). After an error, a run that held the job ends its record in the job's
 * history with that error (lib/steps/lock/end-after-error-step.ts): the failure path skips "Finish
 * restart", where every other run's record ends.
 */
import type { Context } from 'aws-lambda';
import type { ProgressEvent } from '../lib/restart/events';
import { causeMessage } from '../lib/workflow/errors';
import type { TaskFailure } from '../lib/workflow/payloads';
import { decodeWorkflowState } from './private/decode-state';
import { logger } from './private/logger';
import { lockStepsFor } from './private/step-context';
import { stepHandler } from './private/step-handler';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const field = (v: unknown, k: string): unknown =>
  v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;

/** The run's `run-ended`, after its record was ended with `error`; none when it cannot be read. */
async function endedAfterError(event: unknown, error: unknown, context: Context): Promise<ProgressEvent[]> {
  try {
    const state = decodeWorkflowState(event);
    if (state.plan === null) return [];
    const { options, run, plan, progress } = state;
    return await lockStepsFor(context).endAfterError({ options, run, plan, progress }, {
      Error: str(field(error, 'Error')) ?? '',
      Cause: str(field(error, 'Cause')) ?? '',
    } satisfies TaskFailure);
  } catch (err) {
    // The failure path must reach its Fail state: a record not ended is the lesser loss.
    logger.warn('Run record not ended after the error', { error: (err as Error).name });
    return [];
  }
}

const releaseLock = async (event: unknown, context: Context): Promise<unknown> => {
  const runId = str(field(field(event, 'run'), 'runId'));
  const plan = field(event, 'plan');
  const namespace = str(field(plan, 'namespace'));
  const jobId = str(field(plan, 'jobId'));
  const key = namespace === undefined || jobId === undefined ? undefined : { namespace, jobId };
  const released = await lockStepsFor(context).release(runId, key);
  logger.info('Lock release', { jobId: jobId ?? null, released });
  if (event === null || typeof event !== 'object') return event;
  const error = field(event, 'error');
  // Only a run that held the job has a record: a run refused it must not end the holder's.
  const events = released && error !== undefined ? await endedAfterError(event, error, context) : [];
  const cause = str(field(error, 'Cause'));
  return {
    ...event,
    events,
    ...(cause === undefined ? {} : { error: { ...(error as object), Cause: causeMessage(cause) } }),
  };
};

export const handler = stepHandler(releaseLock, { nomad: true });
