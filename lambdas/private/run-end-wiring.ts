/**
 * What the run-end notifier and the stale-lock handler read besides their event: the execution's
 * details Step Functions left out of the event (`DescribeExecution`, this state machine's
 * executions only), and the run's record in the plan store (the counts of a run that ended
 * without a summary).
 */
import type { SFNClient } from '@aws-sdk/client-sfn';
import { readRunRecord } from '../../lib/steps/kit/step-kit';
import { awsSdkClient } from '../../lib/stores/aws-client-config';
import { planStoreFromEnv } from '../../lib/stores/from-env';
import { type EndedExecution, runIdOf } from '../../lib/workflow/ended-execution';
import type { RunRecordView } from '../../lib/workflow/run-end';
import { logger } from './logger';

let sfn: SFNClient | undefined;

/** `DescribeExecution` of one of this state machine's executions. */
async function describeExecution(executionArn: string) {
  const { SFNClient, DescribeExecutionCommand } = await import('@aws-sdk/client-sfn');
  sfn ??= awsSdkClient(SFNClient, {});
  return sfn.send(new DescribeExecutionCommand({ executionArn }));
}

/**
 * The execution's input when its status-change event left it out (EventBridge does above about
 * 248 KB), read back with `DescribeExecution`; the event's own when it has one.
 */
export async function inputOf(
  executionArn: string,
  fromEvent: string | null | undefined,
): Promise<string | undefined> {
  if (fromEvent !== null && fromEvent !== undefined) return fromEvent;
  return (await describeExecution(executionArn)).input;
}

/** `e` with what the event left out (too large for it) read back with `DescribeExecution`. */
export async function withDescribedDetails(e: EndedExecution): Promise<EndedExecution> {
  const out = await describeExecution(e.executionArn);
  const fill = (mine: string | undefined, theirs: string | undefined) => mine ?? theirs;
  const input = fill(e.input, out.input);
  const output = fill(e.output, out.output);
  const error = fill(e.error, out.error);
  const cause = fill(e.cause, out.cause);
  return {
    ...e,
    ...(input === undefined ? {} : { input }),
    ...(output === undefined ? {} : { output }),
    ...(error === undefined ? {} : { error }),
    ...(cause === undefined ? {} : { cause }),
  };
}

/**
 * The record of the run `e` belongs to, or `undefined` when the store has none. A store that
 * cannot be read leaves the counts out of the message rather than keeping it from being posted.
 */
export async function runRecordOf(e: EndedExecution): Promise<RunRecordView | undefined> {
  try {
    return await readRunRecord(planStoreFromEnv(), runIdOf(e.executionArn, e.input));
  } catch (error) {
    logger.warn('Run record not readable; the message goes out without its counts', {
      executionArn: e.executionArn,
      error: error instanceof Error ? error.name : String(error),
    });
    return undefined;
  }
}
