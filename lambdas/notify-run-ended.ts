/**
 * EventBridge target for `Step Functions Execution Status Change` (SUCCEEDED, FAILED, TIMED_OUT,
 * ABORTED) of the restart state machine: tells the configured channels that a run ended, with
 * its summary and a link to the execution. An execution that handed over to a continue-as-new
 * successor is not the run's end and posts nothing. When every channel fails the invocation
 * fails, so Lambda retries it; when some were told, the others' failures are logged instead (a
 * retry would tell those twice).
 */
import * as z from 'zod';
import { postToAll, runEndedMessage } from '../lib/approvals/run-ended-message';
import { END_STATUSES, type EndedExecution, lacksDetails } from '../lib/workflow/ended-execution';
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
  const { posted, failed } = await postToAll(channels, runEndedMessage(end));
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

export const handler = stepHandler(notifyRunEnded, { workflowErrors: false });
