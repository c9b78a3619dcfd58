/**
 * Task "Lock job": one restart per job (the policy: lib/steps/lock/take-lock-step.ts). Plan's
 * lines come out here, once the job is this run's: a refused or skipped run shows none of them.
 */
import type { Context } from 'aws-lambda';
import type { WorkflowState } from '../lib/workflow/payloads';
import { decodeWorkflowState, plannedInput } from './private/decode-state';
import { logger } from './private/logger';
import { lockStepsFor } from './private/step-context';
import { stepHandler } from './private/step-handler';

const lockJob = async (event: unknown, context: Context): Promise<WorkflowState> => {
  const { planEvents = [], ...state } = decodeWorkflowState(event);
  const input = plannedInput(state);
  const { outcome, summary, events, run } = await lockStepsFor(context).take(input);
  logger.info('Job lock', { jobId: input.plan.jobId, namespace: input.plan.namespace, outcome });
  // "Locked by another run?" routes a skipped run on its summary.
  if (summary !== null) return { ...state, summary, events };
  return { ...state, run, events: [...planEvents, ...events] };
};

// The run holds its job from here: its live thread starts (lambdas/private/run-progress-middleware.ts).
export const handler = stepHandler(lockJob, { nomad: true, recordsProgress: 'batch' });
