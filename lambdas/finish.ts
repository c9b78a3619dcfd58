/** Task "Finish restart": the final output (Nomad's `command/job_restart.go` `Run`) as a summary. */
import type { Context } from 'aws-lambda';
import type { WorkflowState } from '../lib/workflow/payloads';
import { decodeWorkflowState } from './private/decode-state';
import { logger } from './private/logger';
import { stepsFor } from './private/step-context';
import { stepHandler } from './private/step-handler';

const finish = async (event: unknown, context: Context): Promise<WorkflowState> => {
  const state = decodeWorkflowState(event);
  const { options, run, plan, progress } = state;
  const out = await stepsFor(context).finish({ options, run, plan, progress });
  logger.info('Restart finished', { outcome: out.summary.outcome, failed: out.summary.failed });
  return { ...state, summary: out.summary, events: out.events };
};

export const handler = stepHandler(finish, { nomad: true, state: 'finish' });
