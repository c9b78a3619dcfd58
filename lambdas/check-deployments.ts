/**
 * Task "Check deployments": the safe point before a batch. The job lock's guard goes first (a
 * cancel request, the maintenance window's end, a lost lock: each stops the run here); otherwise
 * the deployment guard runs.
 */
import type { Context } from 'aws-lambda';
import { stopped } from '../lib/steps/lock/guard-step';
import type { WorkflowState } from '../lib/workflow/payloads';
import { decodeWorkflowState, plannedInput } from './private/decode-state';
import { logger } from './private/logger';
import { lockStepsFor, stepsFor } from './private/step-context';
import { stepHandler } from './private/step-handler';

const checkDeployments = async (event: unknown, context: Context): Promise<WorkflowState> => {
  const state = decodeWorkflowState(event);
  const input = plannedInput(state);
  const batch = input.progress.nextBatch;
  const guarded = await lockStepsFor(context).guard(input);
  if (stopped(guarded)) {
    logger.info('Stopped at the safe point', { jobId: input.plan.jobId, batch, guard: guarded.guard });
    return { ...state, ...guarded };
  }
  const { run } = guarded;
  const out = await stepsFor(context).checkDeployments({ ...input, run });
  logger.info('Deployment guard', { batch, blocked: out.blocked });
  const guard = { blocked: out.blocked, canceled: false, windowEnded: false };
  return { ...state, run, guard, progress: out.progress, events: out.events };
};

export const handler = stepHandler(checkDeployments, { nomad: true, state: 'check-deployments' });
