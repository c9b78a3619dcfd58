/**
 * EventBridge target for `Step Functions Execution Status Change` (SUCCEEDED, FAILED, TIMED_OUT,
 * ABORTED) of the restart state machine: tells the configured channels that a run ended, with
 * its summary and a link to the execution, in the run's live thread where it has one (also to
 * the channel), and edits the live message one last time to say how it ended. An execution that handed over to a continue-as-new
 * successor is not the run's end and posts nothing. When every channel fails the invocation
 * fails, so Lambda retries it; when some were told, the others' failures are logged instead (a
 * retry would tell those twice).
 */
import * as z from 'zod';
import type { ChatChannel } from '../lib/approvals/message';
import { postToAll, RUN_ENDINGS, runEndedMessage } from '../lib/approvals/run-ended-message';
import { endRunThread, threadPlacement } from '../lib/approvals/run-thread';
import { runThreadStoreFromEnv } from '../lib/stores/from-env';
import { END_STATUSES, type EndedExecution, lacksDetails, runIdOf } from '../lib/workflow/ended-execution';
import { StepPayloadError } from '../lib/workflow/errors';
import { endOfExecution, needsRunRecord } from '../lib/workflow/run-end';
import { chatChannels, chatSettings } from './private/approval-wiring';
import { logger } from './private/logger';
import { runRecordOf, withDescribedDetails } from './private/run-end-wiring';
import { stepHandler } from './private/step-handler';

const optional = z
  .string()
  .nullish()
  .transform((v) => v ?? undefined);

const statusChangeSchema = z.object({
  detail: z.object({
    executionArn: z.string().min(1),
    status: z.enum(END_STATUSES),
    startDate: z.number(),
    stopDate: z.number().nullish(),
    input: optional,
    output: optional,
    error: optional,
    cause: optional,
  }),
});

/** What one event came to: the outcome told (none for a hand-over) and the channels that got it. */
export interface NotifyRunEndedResult {
  readonly outcome: string | null;
  readonly posted: string[];
}

function endedExecution(event: unknown): EndedExecution {
  const parsed = statusChangeSchema.safeParse(event);
  if (!parsed.success)
    throw new StepPayloadError('Event is not a Step Functions execution status change that ends one');
  const { stopDate, input, output, error, cause, ...rest } = parsed.data.detail;
  return {
    ...rest,
    stopDate: stopDate ?? Date.now(),
    ...(input === undefined ? {} : { input }),
    ...(output === undefined ? {} : { output }),
    ...(error === undefined ? {} : { error }),
    ...(cause === undefined ? {} : { cause }),
  };
}

const notifyRunEnded = async (event: unknown): Promise<NotifyRunEndedResult> => {
  const fromEvent = endedExecution(event);
  const ended = lacksDetails(fromEvent) ? await withDescribedDetails(fromEvent) : fromEvent;
  const end = endOfExecution(ended, needsRunRecord(ended) ? await runRecordOf(ended) : undefined);
  const { executionArn } = ended;
  if (end.kind === 'continued') {
    logger.info('Execution continued as new: the run goes on', { executionArn });
    return { outcome: null, posted: [] };
  }
  const channels = await chatChannels(await chatSettings());
  // In the run's live thread where it has one, shown in the channel too (`reply_broadcast`).
  const runId = runIdOf(executionArn, ended.input);
  const threads = runThreadStoreFromEnv();
  const placementOf = (channel: ChatChannel) =>
    threadPlacement(threads, runId, channel, true).catch((error: unknown) => {
      logger.warn('Run thread not read: the end is posted to the channel', { reason: errorName(error) });
      return undefined;
    });
  const { posted, failed } = await postToAll(channels, runEndedMessage(end), placementOf);
  await endRunThread({ threads, channels, now: Date.now }, runId, RUN_ENDINGS[end.outcome]).catch(
    (error: unknown) => logger.warn('Run thread not closed', { reason: errorName(error) }),
  );
  for (const { channel, error } of failed) {
    logger.error('Run end not posted', {
      executionArn,
      channel,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    });
  }
  if (posted.length === 0 && failed.length > 0) throw failed[0]?.error;
  logger.info('Run end posted', { executionArn, outcome: end.outcome, channels: posted });
  return { outcome: end.outcome, posted };
};

const errorName = (error: unknown) => (error instanceof Error ? error.name : 'unknown');

export const handler = stepHandler(notifyRunEnded, { workflowErrors: false });
