/**
 * Tasks "Release lock" and "Release lock after error" (lib/steps/lock/release-lock-step.ts).
 * Tolerates any state, because the failure path can start before a plan exists. It leaves the
 * failure's cause readable for the Fail state that follows (Lambda's error JSON, trace included,
 * becomes its message).
 */
import type { Context } from 'aws-lambda';
import { causeMessage } from '../lib/workflow/errors';
import { logger } from './private/logger';
import { lockStepsFor } from './private/step-context';
import { stepHandler } from './private/step-handler';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const field = (v: unknown, k: string): unknown =>
  v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;

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
  const cause = str(field(error, 'Cause'));
  return {
    ...event,
    events: [],
    ...(cause === undefined ? {} : { error: { ...(error as object), Cause: causeMessage(cause) } }),
  };
};

export const handler = stepHandler(releaseLock, { nomad: true });
