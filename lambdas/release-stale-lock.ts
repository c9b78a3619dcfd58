/**
 * EventBridge target for `Step Functions Execution Status Change` (FAILED, TIMED_OUT, ABORTED):
 * releases the lock of a run whose execution died outside a Catch (an abort, a timeout), marks
 * its plan-store documents as ended (they may expire now), and drops its pending questions. The run id is the first execution's ARN, or, for a continued
 * execution, the `runId` carried in its input.
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { z } from 'zod';
import { approvalStoreFromEnv, planStoreFromEnv } from '../lib/stores/from-env';
import { runKeyPrefix } from '../lib/stores/plan-store';
import { StepPayloadError } from '../lib/workflow/errors';
import { jobLockFor } from './private/job-lock';
import { logger } from './private/logger';
import { nomadClientMiddleware } from './private/nomad-client-middleware';

const statusChangeSchema = z.object({
  detail: z.object({ executionArn: z.string().min(1), status: z.string(), input: z.string().nullish() }),
});

/** The run id of an execution, from its ARN and its input (a JSON string, possibly absent). */
export function runIdOf(executionArn: string, input: string | null | undefined): string {
  try {
    const parsed: unknown = JSON.parse(input ?? 'null');
    const runId = (parsed as { continuation?: { run?: { runId?: unknown } } } | null)?.continuation?.run
      ?.runId;
    if (typeof runId === 'string' && runId !== '') return runId;
  } catch {
    // Not JSON: a first execution started with bad input; its run id is its own ARN.
  }
  return executionArn;
}

const lambdaHandler = async (event: unknown, context: Context): Promise<{ released: number }> => {
  const parsed = statusChangeSchema.safeParse(event);
  if (!parsed.success) throw new StepPayloadError('Event is not a Step Functions execution status change');
  const { executionArn, status, input } = parsed.data.detail;
  const runId = runIdOf(executionArn, input);
  const released = await jobLockFor(context, 'release').releaseByOwner(runId);
  await planStoreFromEnv().endRun(runKeyPrefix(runId));
  const approvals = approvalStoreFromEnv();
  for (const pending of await approvals.listByExecution(executionArn)) {
    await approvals.delete(pending.approvalId);
  }
  logger.info('Stale lock cleanup', { executionArn, status, released });
  return { released };
};

export const handler = middy<unknown, { released: number }, Error, Context>(lambdaHandler)
  .use(injectLambdaContext(logger))
  .use(nomadClientMiddleware());
