/**
 * EventBridge target for `Step Functions Execution Status Change` (FAILED, TIMED_OUT, ABORTED):
 * releases the lock of a run whose execution died outside a Catch (an abort, a timeout), marks
 * its plan-store documents as ended (they may expire now), and closes the questions it left open
 * (chat's messages then say the run ended). The run id is the first execution's ARN, or, for a
 * continued execution, the `runId` carried in its input (read back with `DescribeExecution` when
 * the event left it out).
 */
import type { Context } from 'aws-lambda';
import * as z from 'zod';
import { closeOpenQuestions } from '../lib/approvals/timeouts';
import { clockOf } from '../lib/steps/kit/local-invocation';
import { staleRunEnd } from '../lib/steps/lock/release-lock-step';
import { approvalStoreFromEnv } from '../lib/stores/from-env';
import { runIdOf } from '../lib/workflow/ended-execution';
import { StepPayloadError } from '../lib/workflow/errors';
import { logger } from './private/logger';
import { inputOf } from './private/run-end-wiring';
import { runEndedMetrics } from './private/run-metrics';
import { publishRunMetrics } from './private/run-metrics-middleware';
import { lockStepsFor } from './private/step-context';
import { stepHandler } from './private/step-handler';

const statusChangeSchema = z.object({
  detail: z.object({
    executionArn: z.string().min(1),
    status: z.string(),
    input: z.string().nullish(),
    error: z.string().nullish(),
    stopDate: z.number().nullish(),
  }),
});

const releaseStaleLock = async (event: unknown, context: Context): Promise<{ released: number }> => {
  const parsed = statusChangeSchema.safeParse(event);
  if (!parsed.success) throw new StepPayloadError('Event is not a Step Functions execution status change');
  const { executionArn, status, input, error, stopDate } = parsed.data.detail;
  // A continued execution's run id is in its input, which the event leaves out when it is large.
  const runId = runIdOf(executionArn, await inputOf(executionArn, input));
  const end = staleRunEnd(status, error, stopDate ?? clockOf(context)());
  const released = await lockStepsFor(context).releaseStale(runId, end);
  // Closed, not deleted: chat's message says the run ended (its item expires with its TTL).
  const closedQuestions = await closeOpenQuestions(approvalStoreFromEnv(), executionArn, 'run-ended');
  logger.info('Stale lock cleanup', { executionArn, status, released, closedQuestions });
  // Aborted or timed out, no step said the run ended. A FAILED one (`error`) is left to its steps:
  // the Catch's "Release lock after error" emits its `run-ended`.
  if (end.outcome !== 'error')
    publishRunMetrics(context, () => [runEndedMetrics(end.outcome, { runId, executionArn })]);
  return { released };
};

export const handler = stepHandler(releaseStaleLock, { nomad: true, workflowErrors: false });
