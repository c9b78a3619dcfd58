/**
 * Task "Validate input": the console/schedule input through the domain's schema and Nomad's
 * checks (spec §1.3). Bad input ends the execution in `InvalidInput` with Nomad's message,
 * before the lock is taken or any Nomad request is made: this handler has no Nomad client.
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { RestartValidationError, validateRestartInput } from '../lib/restart';
import { InvalidInputError, StepPayloadError } from '../lib/workflow/errors';
import type { WorkflowState } from '../lib/workflow/payloads';
import { logger } from './private/logger';
import { workflowErrorsMiddleware } from './private/workflow-errors-middleware';

const lambdaHandler = async (event: unknown): Promise<WorkflowState> => {
  const executionId = (event as { executionId?: unknown } | null)?.executionId;
  if (typeof executionId !== 'string' || executionId === '') {
    throw new StepPayloadError('Task input has no "executionId": the state machine passes $$.Execution.Id');
  }
  const raw = (event as { input?: unknown }).input;
  let options: WorkflowState['options'];
  try {
    // Interactive: in the workflow, questions are task-token waits that chat, the console or
    // the CLI answer, so `ask` is allowed without `yes`.
    options = validateRestartInput(raw, { interactive: true });
  } catch (err) {
    if (err instanceof RestartValidationError) throw new InvalidInputError(err.message, { cause: err });
    throw err;
  }
  if (options.dryRun) {
    // The graph has no read-only path: a dry run is `nomad-restart -dry-run`, which plans
    // with read-only calls and never starts an execution. Refuse rather than restart for real.
    throw new InvalidInputError(
      'Invalid input field "dryRun": got true, expected false (a dry run is made by "nomad-restart -dry-run", not by an execution)',
    );
  }
  logger.info('Input valid', { job: options.job });
  const startedBy = (raw as { startedBy?: unknown }).startedBy;
  return {
    options,
    run: {
      runId: executionId,
      executionId,
      executionNumber: 1,
      ...(typeof startedBy === 'string' && startedBy !== '' ? { startedBy } : {}),
    },
    plan: null,
    progress: null,
    decision: null,
    guard: null,
    batch: null,
    summary: null,
    events: [],
  };
};

export const handler = middy<unknown, WorkflowState, Error, Context>(lambdaHandler)
  .use(injectLambdaContext(logger))
  .use(workflowErrorsMiddleware());
