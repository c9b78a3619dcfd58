/**
 * Task "Apply answer": reads the reply to the pending question (Nomad's `command/job_restart.go`
 * `shouldProceed`).
 */
import type { Context } from 'aws-lambda';
import { closeOpenQuestions } from '../lib/approvals/timeouts';
import { approvalStoreFromEnv } from '../lib/stores/from-env';
import { StepPayloadError } from '../lib/workflow/errors';
import type { WorkflowState } from '../lib/workflow/payloads';
import { decodeWorkflowState, plannedInput } from './private/decode-state';
import { logger } from './private/logger';
import { stepsFor } from './private/step-context';
import { stepHandler } from './private/step-handler';

const applyAnswer = async (event: unknown, context: Context): Promise<WorkflowState> => {
  const { answer, ...state } = decodeWorkflowState(event);
  if (state.decision === null || answer === undefined) {
    throw new StepPayloadError(
      'Task input has no question and answer: "Apply answer" runs after "Ask question"',
    );
  }
  const out = await stepsFor(context).applyAnswer({
    ...plannedInput(state),
    decision: state.decision,
    answer,
  });
  if ('Error' in answer && answer.Error === 'States.Timeout') {
    // Nobody answered in time: record it on the question, so chat shows Nomad's default applied.
    const timedOut = await closeOpenQuestions(approvalStoreFromEnv(), state.run.executionId, 'timeout');
    logger.info('Question timed out', { recorded: timedOut });
  }
  logger.info('Answer applied', { next: out.decision.action });
  return { ...state, progress: out.progress, decision: out.decision, events: out.events };
};

export const handler = stepHandler(applyAnswer, { nomad: true, state: 'apply-answer' });
