/**
 * The batch loop of the state machine: guard, restart, await, await health, decide, ask or wait,
 * and round again.
 */
import type { Duration } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import type { Construct } from 'constructs';
import { HISTORY_EVENT_BUDGET } from './history-budget';
import { lambdaStep } from './private/lambda-step';
import { ERROR_RESULT_PATH, LAMBDA_RETRY_ERRORS, retryWithBackoff } from './private/retry-catch';
import { FlowStates, type HandlerId, TaskStates } from './state-names';

/** Props of {@link BatchLoop}. */
export interface BatchLoopProps {
  /** The Lambda function serving each handler. */
  readonly functions: Readonly<Record<HandlerId, lambda.Function>>;
  /** Failure path: release the lock, then fail. */
  readonly onError: sfn.IChainable;
  /** Where the loop goes when the decision is `finish`. */
  readonly onFinish: sfn.IChainable;
  /** Where the loop goes on a confirmed cancel request. */
  readonly onCancel: sfn.IChainable;
  /** Where the loop goes once an execution ran `batchesPerExecution` batches. */
  readonly onContinueAsNew: sfn.IChainable;
  /** Batches one execution runs before continuing as new. */
  readonly batchesPerExecution: number;
  /** Await slices one execution runs for a batch before continuing as new. */
  readonly awaitSlicesPerExecution: number;
  /** How long a question waits for an answer before Nomad's default answer (no) applies. */
  readonly approvalTimeout: Duration;
}

const batchDone = sfn.Condition.booleanEquals('$.batch.done', true);

/** An optional flag of the guard is set. IsPresent first: older states (and other stops) lack it. */
const guardFlag = (flag: 'windowEnded' | 'stopped' | 'paused') =>
  sfn.Condition.and(
    sfn.Condition.isPresent(`$.guard.${flag}`),
    sfn.Condition.booleanEquals(`$.guard.${flag}`, true),
  );

/**
 * The execution's history has reached its budget of events (history-budget.ts): continue as new
 * at the next clean point. IsPresent first: a numeric comparison of a missing field is a runtime
 * error, and states from before the estimate have none.
 */
const historyBudgetSpent = sfn.Condition.and(
  sfn.Condition.isPresent('$.progress.historyEvents'),
  sfn.Condition.numberGreaterThanEquals('$.progress.historyEvents', HISTORY_EVENT_BUDGET),
);

/**
 * With `-wait-healthy` (the options carry its timings), a settled batch whose health has not been
 * judged yet. Also read by the definition: a run continued between health slices resumes there.
 */
export const healthPending = sfn.Condition.and(
  sfn.Condition.isPresent('$.options.waitHealthy'),
  // Not `isNotPresent`: aws-local-stepfunctions 3 reads `IsPresent: false` as always false.
  sfn.Condition.not(
    sfn.Condition.and(
      sfn.Condition.isPresent('$.batch.healthChecked'),
      sfn.Condition.booleanEquals('$.batch.healthChecked', true),
    ),
  ),
);

/**
 * The batch loop of `nomad job restart` (Nomad's `command/job_restart.go` `Run`), entered at "Next step?":
 * deployment guard → restart (or stop → trigger evaluations, for system jobs) → await until the
 * batch settles → with `-wait-healthy`, await its health → decide → ask / wait / next. It leaves
 * through the props' exits only.
 */
export class BatchLoop extends sfn.StateMachineFragment {
  public readonly startState: sfn.State;
  /** Where a continued execution resumes a batch whose replacements (or health) are still awaited. */
  public readonly awaitEntry: sfn.State;
  public readonly endStates: sfn.INextable[] = [];

  public constructor(scope: Construct, id: string, props: BatchLoopProps) {
    super(scope, id);
    const f = props.functions;
    const step = (stateId: string, handler: HandlerId) =>
      lambdaStep(this, stateId, { fn: f[handler], onError: props.onError });

    const nextStep = new sfn.Choice(this, FlowStates.nextStep);
    const checkDeployments = step(TaskStates.checkDeployments, 'check-deployments');
    const safeToRestart = new sfn.Choice(this, FlowStates.safeToRestart);
    const restartBatch = step(TaskStates.restartBatch, 'restart-batch');
    const stopAllocations = step(TaskStates.stopAllocations, 'restart-batch');
    const triggerEvaluations = step(TaskStates.triggerEvaluations, 'trigger-evaluations');
    const batchSettled = new sfn.Choice(this, FlowStates.batchSettled);
    const awaitBatch = step(TaskStates.awaitBatch, 'await-batch');
    const awaitHealth = step(TaskStates.awaitHealth, 'await-health');
    const decide = step(TaskStates.decide, 'decide');
    const applyAnswer = step(TaskStates.applyAnswer, 'apply-answer');
    const ask = this.askStep(props, applyAnswer);
    const waitBeforeNextBatch = new sfn.Wait(this, FlowStates.waitBeforeNextBatch, {
      time: sfn.WaitTime.secondsPath('$.decision.waitSeconds'),
    });

    nextStep
      .when(sfn.Condition.stringEquals('$.decision.action', 'finish'), props.onFinish)
      .when(sfn.Condition.stringEquals('$.decision.action', 'cancel'), props.onCancel)
      // Continue as new only between batches, so a continued execution starts clean; on a spent
      // history budget before a question too (the continued execution asks it).
      .when(historyBudgetSpent, props.onContinueAsNew)
      .when(sfn.Condition.stringEquals('$.decision.action', 'ask'), ask)
      .when(
        sfn.Condition.numberGreaterThanEquals('$.progress.batchesThisExecution', props.batchesPerExecution),
        props.onContinueAsNew,
      )
      .when(sfn.Condition.stringEquals('$.decision.action', 'wait'), waitBeforeNextBatch)
      .otherwise(checkDeployments);
    waitBeforeNextBatch.next(checkDeployments);
    applyAnswer.next(nextStep);
    decide.next(nextStep);

    checkDeployments.next(
      safeToRestart
        .when(sfn.Condition.booleanEquals('$.guard.canceled', true), props.onCancel)
        // Run control (docs/run-control.md): a stop ends the run as a "no" does (progress
        // `canceled`); a pause parks its question, whose yes comes back to this safe point.
        .when(guardFlag('stopped'), props.onFinish)
        .when(guardFlag('paused'), ask)
        .when(guardFlag('windowEnded'), props.onFinish)
        .when(sfn.Condition.booleanEquals('$.guard.blocked', true), props.onFinish)
        .when(sfn.Condition.booleanEquals('$.plan.triggerEvaluations', true), stopAllocations)
        .otherwise(restartBatch),
    );
    stopAllocations.next(triggerEvaluations);
    restartBatch.next(batchSettled);
    // A stopped batch is never settled yet: straight to its replacements (one state less per batch).
    triggerEvaluations.next(awaitBatch);
    batchSettled
      .when(sfn.Condition.and(batchDone, sfn.Condition.not(healthPending)), decide)
      // Between two slices the state is clean (the cursor is in the plan store): a wait that
      // never ends must not run the execution into Step Functions' history limit.
      .when(
        sfn.Condition.or(
          historyBudgetSpent,
          sfn.Condition.and(
            sfn.Condition.isPresent('$.batch.slicesThisExecution'),
            sfn.Condition.numberGreaterThanEquals(
              '$.batch.slicesThisExecution',
              props.awaitSlicesPerExecution,
            ),
          ),
        ),
        props.onContinueAsNew,
      )
      // With -wait-healthy, a settled batch is awaited until healthy, in slices like its replacements.
      .when(batchDone, awaitHealth)
      .otherwise(awaitBatch);
    awaitBatch.next(batchSettled);
    awaitHealth.next(batchSettled);

    this.startState = nextStep;
    this.awaitEntry = batchSettled;
  }

  /** The question, parked on a task token until answered or timed out. */
  private askStep(props: BatchLoopProps, applyAnswer: sfn.IChainable): tasks.LambdaInvoke {
    const ask = new tasks.LambdaInvoke(this, TaskStates.ask, {
      lambdaFunction: props.functions.ask,
      integrationPattern: sfn.IntegrationPattern.WAIT_FOR_TASK_TOKEN,
      payload: sfn.TaskInput.fromObject({
        taskToken: sfn.JsonPath.taskToken,
        executionId: sfn.JsonPath.executionId,
        runId: sfn.JsonPath.stringAt('$.run.runId'),
        jobId: sfn.JsonPath.stringAt('$.plan.jobId'),
        namespace: sfn.JsonPath.stringAt('$.plan.namespace'),
        question: sfn.JsonPath.objectAt('$.decision.question'),
        // How long the question waits: its item lives as long, plus a margin (lambdas/ask.ts).
        timeoutSeconds: props.approvalTimeout.toSeconds(),
        // What chat shows with the question: region, who started the run, the last batch.
        options: sfn.JsonPath.objectAt('$.options'),
        run: sfn.JsonPath.objectAt('$.run'),
        plan: sfn.JsonPath.objectAt('$.plan'),
        progress: sfn.JsonPath.objectAt('$.progress'),
      }),
      retryOnServiceExceptions: false,
      resultPath: '$.answer',
      taskTimeout: sfn.Timeout.duration(props.approvalTimeout),
    });
    ask.addRetry(retryWithBackoff(LAMBDA_RETRY_ERRORS));
    // Nobody answered in time: apply-answer reads the timeout as a read error, and Nomad's
    // default answer for that question (no) applies.
    ask.addCatch(applyAnswer, { errors: [sfn.Errors.TIMEOUT], resultPath: '$.answer' });
    ask.addCatch(props.onError, { errors: [sfn.Errors.ALL], resultPath: ERROR_RESULT_PATH });
    ask.next(applyAnswer);
    return ask;
  }
}
