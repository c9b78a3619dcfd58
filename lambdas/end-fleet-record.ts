/**
 * EventBridge target for the fleet state machine's `Step Functions Execution Status Change`
 * (FAILED, TIMED_OUT, ABORTED): ends the provisional record "Plan fleet" wrote in the run history
 * (issue #40) of a fleet execution that ended without "Summarize fleet" (stopped in the console,
 * past its time limit, a step that failed), so readers see how it ended rather than a run that
 * never finished. A fleet that ended with its summary already has its final record: nothing changes.
 */
import type { Context } from 'aws-lambda';
import * as z from 'zod';
import { fleetRecordNamespace } from '../lib/steps/fleet/fleet-record';
import { endUnfinishedRecords } from '../lib/steps/kit/job-history';
import { clockOf } from '../lib/steps/kit/local-invocation';
import { staleRunEnd } from '../lib/steps/lock/release-lock-step';
import { StepPayloadError } from '../lib/workflow/errors';
import { logger } from './private/logger';
import { nomadClientOf } from './private/nomad-client-middleware';
import { runHistoryFor } from './private/run-history';
import { stepHandler } from './private/step-handler';

const statusChangeSchema = z.object({
  detail: z.object({
    executionArn: z.string().min(1),
    status: z.enum(['FAILED', 'TIMED_OUT', 'ABORTED']),
    input: z.string().nullish(),
    error: z.string().nullish(),
    cause: z.string().nullish(),
  }),
});

/** The namespace the fleet selected, from its input; the function's own when the event left it out. */
function selectedNamespace(input: string | null | undefined, fallback: string): string {
  try {
    const namespace = (JSON.parse(input ?? '{}') as { namespace?: unknown }).namespace;
    return typeof namespace === 'string' && namespace !== '' ? namespace : fallback;
  } catch {
    return fallback;
  }
}

const endFleetRecord = async (event: unknown, context: Context): Promise<{ namespace: string }> => {
  const parsed = statusChangeSchema.safeParse(event);
  if (!parsed.success) throw new StepPayloadError('Event is not a fleet execution status change');
  const { status, input, error, cause, executionArn } = parsed.data.detail;
  // The fleet run's ID is its execution's name, the ARN's last part ("Plan fleet" names the run by it).
  const runId = executionArn.slice(executionArn.lastIndexOf(':') + 1);
  // "Plan fleet" put the record where it lists jobs: the input's namespace, else the token's default.
  const nomad = nomadClientOf(context);
  const namespace = fleetRecordNamespace(selectedNamespace(input, nomad.config.namespace ?? 'default'));
  const why = [error, cause].filter((part) => typeof part === 'string' && part !== '').join(': ');
  // The one rule a dead execution's records end by, the one-job runs' too (release-stale-lock).
  const end = staleRunEnd(status, why, clockOf(context)());
  await endUnfinishedRecords(runHistoryFor(context), [{ namespace, fleets: true }], runId, end);
  logger.info('Fleet record ended', { executionArn, status, namespace });
  return { namespace };
};

export const handler = stepHandler(endFleetRecord, { nomad: true, workflowErrors: false });
