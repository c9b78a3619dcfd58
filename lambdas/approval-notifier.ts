/**
 * Approvals table stream (INSERT, MODIFY; keys only): tells chat about each new question and
 * updates the message once it is decided (answered anywhere, or timed out), and keeps each run's
 * live thread (`run:<runId>` items the steps record progress in) up to date. The item is read
 * back by key; the stream record never carries the task token.
 */
import * as z from 'zod';
import { syncQuestionMessages } from '../lib/approvals/notify';
import { syncRunThread } from '../lib/approvals/run-thread';
import { isApprovalId } from '../lib/stores/approval-store';
import { approvalStoreFromEnv, runThreadStoreFromEnv } from '../lib/stores/from-env';
import { isRunThreadKey, RUN_THREAD_KEY_PREFIX } from '../lib/stores/run-thread-store';
import { StepPayloadError } from '../lib/workflow/errors';
import { chatChannels, chatSettings } from './private/approval-wiring';
import { logger } from './private/logger';
import { stepHandler } from './private/step-handler';

const streamEventSchema = z.object({
  Records: z.array(
    z.object({
      eventName: z.string(),
      dynamodb: z.object({ Keys: z.object({ approvalId: z.object({ S: z.string() }) }) }),
    }),
  ),
});

const syncMessages = async (event: unknown): Promise<{ updated: number }> => {
  const parsed = streamEventSchema.safeParse(event);
  if (!parsed.success)
    throw new StepPayloadError('Event is not a DynamoDB stream event of the approvals table');
  // Replay-guard items share the table; only questions and run threads are told about.
  const keys = [
    ...new Set(
      parsed.data.Records.filter((r) => r.eventName === 'INSERT' || r.eventName === 'MODIFY').map(
        (r) => r.dynamodb.Keys.approvalId.S,
      ),
    ),
  ];
  const ids = keys.filter(isApprovalId);
  const runs = keys.filter(isRunThreadKey).map((key) => key.slice(RUN_THREAD_KEY_PREFIX.length));
  if (ids.length === 0 && runs.length === 0) return { updated: 0 };
  const threads = runThreadStoreFromEnv();
  const channels = await chatChannels(await chatSettings(), { rejectRateLimited: true });
  const deps = { approvals: approvalStoreFromEnv(), channels, threads };
  let updated = 0;
  for (const approvalId of ids) {
    const written = await syncQuestionMessages(deps, approvalId);
    if (written.length > 0) logger.info('Question messages updated', { approvalId, channels: written });
    updated += written.length;
  }
  for (const runId of runs) {
    const outcome = await syncRunThread({ threads, channels, now: Date.now }, runId);
    logger.info('Run thread synced', { outcome });
    if (outcome === 'posted' || outcome === 'edited') updated += 1;
  }
  return { updated };
};

export const handler = stepHandler(syncMessages, { workflowErrors: false });
