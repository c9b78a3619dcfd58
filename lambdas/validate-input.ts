/**
 * Task "Validate input": the console/schedule input through the domain's schema and Nomad's
 * checks (Nomad's `command/job_restart.go` `parseAndValidate`). Bad input ends the execution in
 * `InvalidInput` with Nomad's message, before the lock is taken or any Nomad request is made: this
 * handler has no Nomad client. Its one outside read is CloudWatch's, for `stopOnAlarms` (an alarm
 * that does not exist is bad input too).
 */
import type { Context } from 'aws-lambda';
import { formatGoDuration } from '../lib/go/duration';
import { goQuote } from '../lib/go/quote';
import { RestartValidationError, resolveWindow, validateExecutionInput } from '../lib/restart';
import { refuseMissingAlarms } from '../lib/steps/alarms/alarms-exist';
import { liveEventsOf } from '../lib/steps/kit/local-invocation';
import { AWS_LONGEST_WAIT_SECONDS, AWS_SHARED_LOCK_TTL } from '../lib/stores/shared-lock-settings';
import { continuationNamePrefix } from '../lib/workflow/continuation-name';
import { type DeploymentCheckState, validateDeploymentCheckInput } from '../lib/workflow/deployment-check';
import { InvalidInputError, StepPayloadError } from '../lib/workflow/errors';
import type { WorkflowState } from '../lib/workflow/payloads';
import { alarmReaderOf } from './private/alarm-reader';
import { deadlineSignal } from './private/deadline';
import { logger } from './private/logger';
import { stepHandler } from './private/step-handler';

/**
 * On AWS nothing runs during a batch wait to renew the job's locks: the renewal just before it must
 * outlast it (a terminal renews its own lock while it waits, and may wait longer).
 */
function refuseWaitBeyondLease(options: WorkflowState['options'], given: unknown, context: Context): void {
  const onAws = liveEventsOf(context) === undefined;
  if (
    !onAws ||
    options.batchWait.kind !== 'duration' ||
    options.batchWait.ns <= AWS_LONGEST_WAIT_SECONDS * 1e9
  )
    return;
  const value = typeof given === 'string' ? given : formatGoDuration(options.batchWait.ns);
  throw new InvalidInputError(
    `Invalid -batch-wait value ${goQuote(value)}: a run on AWS waits at most ${AWS_LONGEST_WAIT_SECONDS / 3600}h ` +
      `at a time, since the job's lock it renews before the wait lasts ${AWS_SHARED_LOCK_TTL}; use "ask" or a shorter wait`,
  );
}

/** A deployment check's input (`nomad-restart check`), refused with any other field. */
function validateCheck(raw: unknown, executionId: string): DeploymentCheckState {
  try {
    return validateDeploymentCheckInput(raw, executionId);
  } catch (err) {
    if (err instanceof RestartValidationError) throw new InvalidInputError(err.message, { cause: err });
    throw err;
  }
}

const validateInput = async (
  event: unknown,
  context: Context,
): Promise<WorkflowState | DeploymentCheckState> => {
  const executionId = (event as { executionId?: unknown } | null)?.executionId;
  if (typeof executionId !== 'string' || executionId === '') {
    throw new StepPayloadError('Task input has no "executionId": the state machine passes $$.Execution.Id');
  }
  const raw = (event as { input?: unknown }).input;
  // Only the check's own Task says so: on the restart path the restart schema refuses the field.
  if ((event as { deploymentCheck?: unknown }).deploymentCheck === true)
    return validateCheck(raw, executionId);
  // The execution's start, not this invocation's clock: a retried Validate input must resolve a
  // relative window, and a relative startedBefore, to the same time.
  const started = Date.parse(String((event as { startTime?: unknown }).startTime));
  const startedAt = Number.isNaN(started) ? Date.now() : started;
  let options: WorkflowState['options'];
  try {
    options = validateExecutionInput(raw, startedAt);
  } catch (err) {
    if (err instanceof RestartValidationError) throw new InvalidInputError(err.message, { cause: err });
    throw err;
  }
  refuseWaitBeyondLease(options, (raw as { batchWait?: unknown } | null)?.batchWait, context);
  await refuseMissingAlarms(alarmReaderOf(context), options.stopOnAlarms, deadlineSignal(context));
  logger.info('Input valid', { job: options.job });
  const startedBy = (raw as { startedBy?: unknown }).startedBy;
  return {
    options: resolveWindow(options, startedAt),
    run: {
      runId: executionId,
      executionId,
      executionNumber: 1,
      startedAt,
      continuationPrefix: continuationNamePrefix(executionId, options.job),
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

export const handler = stepHandler(validateInput);
