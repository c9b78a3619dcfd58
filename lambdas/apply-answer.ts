/**
 * Task "Apply answer": reads the reply to the pending question (Nomad's `command/job_restart.go`
 * `shouldProceed`).
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { recordTimeouts } from '../lib/approvals/timeouts';
import { approvalStoreFromEnv } from '../lib/stores/from-env';
import { StepPayloadError } from '../lib/workflow/errors';
import type { WorkflowState } from '../lib/workflow/payloads';
import { decodeWorkflowState, requirePlanned } from './private/decode-state';
import { logger } from './private/logger';
import { nomadClientMiddleware } from './private/nomad-client-middleware';
import { stateBudgetMiddleware } from './private/state-budget-middleware';
import { stepsFor } from './private/step-context';
import { workflowErrorsMiddleware } from './private/workflow-errors-middleware';

const lambdaHandler = async (event: unknown, context: Context): Promise<WorkflowState> => {
  const state = decodeWorkflowState(event);
  if (state.decision === null || state.answer === undefined) {
    throw new StepPayloadError(
      'Task input has no question and answer: "Apply answer" runs after "Ask question"',
    );
  }
  const out = await stepsFor(context).applyAnswer({
    options: state.options,
    run: state.run,
    ...requirePlanned(state),
    decision: state.decision,
    answer: state.answer,
  });
  if ('Error' in state.answer && state.answer.Error === 'States.Timeout') {
    // Nobody answered in time: record it on the question, so chat shows Nomad's default applied.
    const timedOut = await recordTimeouts(approvalStoreFromEnv(), state.run.executionId);
    logger.info('Question timed out', { recorded: timedOut });
  }
  logger.info('Answer applied', { next: out.decision.action });
  const { answer: _answered, ...rest } = state;
  return { ...rest, progress: out.progress, decision: out.decision, events: out.events };
};

export const handler = middy<unknown, WorkflowState, Error, Context>(lambdaHandler)
  .use(injectLambdaContext(logger))
  .use(nomadClientMiddleware())
  .use(workflowErrorsMiddleware())
  .use(stateBudgetMiddleware('apply-answer'));
