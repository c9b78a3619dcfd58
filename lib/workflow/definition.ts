/**
 * The whole restart graph: validate, lock, plan, the batch loop, finish and release, with every
 * failure routed to Nomad's outcome.
 */
import type { Duration } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import type { Construct } from 'constructs';
import { BatchLoop, healthPending } from './batch-loop';
import { DEPLOYMENT_CHECK_FIELD } from './deployment-check';
import { deploymentCheckBranch } from './deployment-check-branch';
import { EXECUTION_ALREADY_EXISTS, WORKFLOW_ERROR_NAMES } from './errors';
import { FAIL_ROUTES, INVALID_INPUT_ROUTE, OTHERWISE_FAIL_STATE } from './failure-routes';
import { failWithMessage } from './private/fail-with-message';
import { lambdaStep, taskTimeoutFor } from './private/lambda-step';
import { ERROR_RESULT_PATH, retryWithBackoff, START_EXECUTION_RETRY_ERRORS } from './private/retry-catch';
import { FailStates, FlowStates, type HandlerId, TaskStates } from './state-names';

/** What {@link restartDefinition} needs. */
export interface RestartDefinitionProps {
  /** The Lambda function serving each handler. */
  readonly functions: Readonly<Record<HandlerId, lambda.Function>>;
  /** This state machine, started again by continue-as-new. */
  readonly self: sfn.IStateMachine;
  /** Batches one execution runs before continuing as new. */
  readonly batchesPerExecution: number;
  /** Await slices one execution runs for a batch before continuing as new. */
  readonly awaitSlicesPerExecution: number;
  /** How long a question waits for an answer. */
  readonly approvalTimeout: Duration;
}

/**
 * Message of the `Canceled` Fail state, as Nomad prints it when an interrupt is confirmed
 * (`command/job_restart.go` `handleSignal`).
 */
export const CANCELED_CAUSE = 'Canceling job restart process';

/**
 * The restart state machine: validate → plan → lock → batch loop → finish → release lock, with
 * a failure funnel (release lock → named Fail) that every task's Catch enters, and a
 * continue-as-new branch that starts this same state machine with the current state.
 */
export function restartDefinition(scope: Construct, props: RestartDefinitionProps): sfn.IChainable {
  const f = props.functions;

  // The failure funnel: release the lock (a no-op when this run does not hold it), then end in
  // the Fail state named after the error, with the error's message as the cause.
  const fail = (id: string) => new sfn.Fail(scope, id, { error: id, causePath: '$.error.Cause' });
  const whichError = FAIL_ROUTES.reduce(
    (choice, route) =>
      choice.when(
        route.errors.length === 1
          ? errorIs(route.errors[0] ?? '')
          : sfn.Condition.or(...route.errors.map(errorIs)),
        fail(route.fail),
      ),
    new sfn.Choice(scope, FlowStates.whichError),
  ).otherwise(fail(OTHERWISE_FAIL_STATE));
  const releaseLockAfterError = new tasks.LambdaInvoke(scope, TaskStates.releaseLockAfterError, {
    lambdaFunction: f['release-lock'],
    payloadResponseOnly: true,
    retryOnServiceExceptions: false,
    taskTimeout: taskTimeoutFor(f['release-lock']),
    // The state comes back with its `error`'s cause made readable (Lambda's JSON error, trace
    // included, becomes its message): the Fail state after it shows that cause in the console.
  });
  releaseLockAfterError.addRetry(retryWithBackoff(['States.ALL']));
  releaseLockAfterError.addCatch(whichError, { errors: [sfn.Errors.ALL], resultPath: '$.releaseError' });
  releaseLockAfterError.next(whichError);
  // A redriven execution (redrive.ts) ends at once: it holds no lock to release, and the failure
  // path must not call Nomad for it either.
  const onError = new sfn.Choice(scope, FlowStates.redriven)
    .when(
      errorIs(WORKFLOW_ERROR_NAMES.executionRedriven),
      failWithMessage(scope, FlowStates.readRedriveError, FailStates.executionRedriven),
    )
    .otherwise(releaseLockAfterError);

  const cancelRequested = new sfn.Pass(scope, FlowStates.cancelRequested, {
    result: sfn.Result.fromObject({ Error: FailStates.canceled, Cause: CANCELED_CAUSE }),
    resultPath: ERROR_RESULT_PATH,
  }).next(onError);

  // Success: finish, release, then succeed or fail by outcome. A failed run's cause is its
  // readable summary (outcome, counts, Nomad's error list).
  const summaryIs = (outcome: string) => sfn.Condition.stringEquals('$.summary.outcome', outcome);
  const finishedWithErrors = new sfn.Choice(scope, FlowStates.finishedWithErrors)
    .when(
      summaryIs('unrecoverable'),
      new sfn.Fail(scope, FailStates.unrecoverableError, {
        error: FailStates.unrecoverableError,
        causePath: '$.summary.text',
      }),
    )
    .when(
      summaryIs('failed'),
      new sfn.Fail(scope, FailStates.restartFailed, {
        error: FailStates.restartFailed,
        causePath: '$.summary.text',
      }),
    )
    // Neither pages anyone: both are expected ends of an unattended run, and say so.
    .when(
      summaryIs('stopped-at-window-end'),
      new sfn.Succeed(scope, FlowStates.stoppedAtWindowEnd, { outputPath: '$.summary' }),
    )
    .when(
      summaryIs('skipped-job-locked'),
      new sfn.Succeed(scope, FlowStates.skippedJobLocked, { outputPath: '$.summary' }),
    )
    .otherwise(new sfn.Succeed(scope, FlowStates.restartFinished, { outputPath: '$.summary' }));
  const releaseLock = lambdaStep(scope, TaskStates.releaseLock, {
    fn: f['release-lock'],
    onError: whichError,
  }).next(finishedWithErrors);
  const finish = lambdaStep(scope, TaskStates.finish, { fn: f.finish, onError }).next(releaseLock);

  const continueAsNew = new tasks.StepFunctionsStartExecution(scope, TaskStates.continueAsNew, {
    stateMachine: props.self,
    input: sfn.TaskInput.fromObject({ continuation: sfn.JsonPath.entirePayload }),
    // The same name for the same hand-over, so a retried StartExecution cannot start a second
    // successor: the run's prefix (job, first execution, digest; written once by Validate input)
    // and the number of the execution being started (`continuation-name.ts`).
    name: sfn.JsonPath.format(
      '{}-{}',
      sfn.JsonPath.stringAt('$.run.continuationPrefix'),
      sfn.JsonPath.mathAdd(sfn.JsonPath.numberAt('$.run.executionNumber'), 1),
    ),
    // Lets the console and the CLI follow the chain from child to parent.
    associateWithParent: true,
    resultSelector: { 'executionArn.$': '$.ExecutionArn' },
    resultPath: '$.continuedAs',
  });
  continueAsNew.addRetry(retryWithBackoff(START_EXECUTION_RETRY_ERRORS));
  const continued = new sfn.Succeed(scope, FlowStates.continued, { outputPath: '$.continuedAs' });
  // A retry after a lost answer finds the successor already started under that name.
  continueAsNew.addCatch(continued, { errors: [...EXECUTION_ALREADY_EXISTS], resultPath: '$.continuedAs' });
  continueAsNew.addCatch(onError, { errors: [sfn.Errors.ALL], resultPath: ERROR_RESULT_PATH });
  continueAsNew.next(continued);

  const loop = new BatchLoop(scope, 'Restart batches', {
    functions: f,
    onError,
    onFinish: finish,
    onCancel: cancelRequested,
    onContinueAsNew: continueAsNew,
    batchesPerExecution: props.batchesPerExecution,
    awaitSlicesPerExecution: props.awaitSlicesPerExecution,
    approvalTimeout: props.approvalTimeout,
  });

  // Bad input ends at once, before the lock is taken or Nomad is called, and without the failure
  // funnel: a run that does not hold the lock must not release it.
  const invalidInput = {
    errors: [...INVALID_INPUT_ROUTE.errors],
    next: failWithMessage(scope, FlowStates.readInputError, INVALID_INPUT_ROUTE.fail),
  };
  const validateInput = lambdaStep(scope, TaskStates.validateInput, {
    fn: f['validate-input'],
    onError,
    payload: sfn.TaskInput.fromObject({
      input: sfn.JsonPath.entirePayload,
      executionId: sfn.JsonPath.executionId,
      startTime: sfn.JsonPath.executionStartTime,
    }),
    catches: [invalidInput],
  });
  // A continuation no hand-over made (lambdas/resume-run.ts) is bad input too.
  const resumeRun = lambdaStep(scope, TaskStates.resumeRun, {
    fn: f['resume-run'],
    onError,
    payload: sfn.TaskInput.fromObject({
      continuation: sfn.JsonPath.objectAt('$.continuation'),
      executionId: sfn.JsonPath.executionId,
    }),
    catches: [invalidInput],
  }).next(
    // An execution continued between await slices goes back to awaiting that batch (its
    // replacements, or with -wait-healthy its health).
    new sfn.Choice(scope, FlowStates.resumeWhere)
      .when(
        sfn.Condition.and(
          sfn.Condition.isPresent('$.batch.done'),
          sfn.Condition.or(sfn.Condition.booleanEquals('$.batch.done', false), healthPending),
        ),
        loop.awaitEntry,
      )
      .otherwise(loop),
  );

  // A scheduled run that finds the job locked comes back from "Lock job" with its summary:
  // it ends there (its plan documents released), without touching the job. (IsPresent on a
  // field, not IsNull: false, which aws-local-stepfunctions 3.0.0 evaluates as always false.)
  const lockedByAnotherRun = new sfn.Choice(scope, FlowStates.lockedByAnotherRun)
    .when(sfn.Condition.isPresent('$.summary.outcome'), releaseLock)
    .otherwise(loop);
  validateInput
    .next(lambdaStep(scope, TaskStates.plan, { fn: f.plan, onError }))
    .next(lambdaStep(scope, TaskStates.lockJob, { fn: f['lock-job'], onError }))
    .next(lockedByAnotherRun);

  return (
    new sfn.Choice(scope, FlowStates.isContinuation)
      .when(sfn.Condition.isPresent('$.continuation'), resumeRun)
      // `nomad-restart check`: one question, no job (deployment-check.ts); its own validation
      // refuses any other field, so restart options cannot ride past the restart's validation.
      .when(
        sfn.Condition.isPresent(`$.${DEPLOYMENT_CHECK_FIELD}`),
        deploymentCheckBranch(scope, {
          validateInput: f['validate-input'],
          ask: f.ask,
          plan: f.plan,
          onInvalidInput: invalidInput.next,
        }),
      )
      .otherwise(validateInput)
  );
}

function errorIs(name: string): sfn.Condition {
  return sfn.Condition.stringEquals('$.error.Error', name);
}
