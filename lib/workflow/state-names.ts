/**
 * State IDs of the restart state machine and the handler module behind each Task. These are
 * a contract: the local engine overrides Task states by name (it binds the same handler code the
 * Lambda runs, and answers the task-token ask step itself), the CLI follows executions by
 * them, and users search for the `Fail` state names.
 */

/** Handler modules under `lambdas/` (file name without `.ts`); also the Lambda construct ids. */
export const HANDLER_IDS = [
  'validate-input',
  'resume-run',
  'plan',
  'lock-job',
  'check-deployments',
  'restart-batch',
  'trigger-evaluations',
  'await-batch',
  'await-health',
  'decide',
  'ask',
  'apply-answer',
  'finish',
  'release-lock',
] as const;

/** One of {@link HANDLER_IDS}. */
export type HandlerId = (typeof HANDLER_IDS)[number];

/** Handler run by the EventBridge rule, outside the graph. */
export const STALE_LOCK_HANDLER_ID = 'release-stale-lock';

/** Task state IDs. */
export const TaskStates = {
  validateInput: 'Validate input',
  resumeRun: 'Resume run',
  plan: 'Plan restart',
  lockJob: 'Lock job',
  checkDeployments: 'Check deployments',
  restartBatch: 'Restart batch',
  stopAllocations: 'Stop allocations',
  triggerEvaluations: 'Trigger evaluations',
  awaitBatch: 'Await batch',
  awaitHealth: 'Await health',
  decide: 'Decide',
  /** `-bake-time`: the alarms read again after each wait of the bake (the decide function). */
  checkWhileBaking: 'Check while baking',
  ask: 'Ask question',
  applyAnswer: 'Apply answer',
  finish: 'Finish restart',
  releaseLock: 'Release lock',
  releaseLockAfterError: 'Release lock after error',
  continueAsNew: 'Continue as new execution',
  /** `nomad-restart check`: its input, through the validate-input function. */
  validateDeploymentCheck: 'Validate deployment check',
  /** `nomad-restart check`: its one question, on a task token, through the ask function. */
  askDeploymentCheck: 'Ask deployment check',
  /** `nomad-restart check -job`: the job read from where the Nomad-calling functions run (plan's). */
  reachDeploymentCheck: 'Reach Nomad for deployment check',
} as const;

/** Choice, Wait, Pass and Succeed state IDs. */
export const FlowStates = {
  isContinuation: 'Continuation?',
  /** Succeed: a deployment check's question was answered (the output is the answer). */
  deploymentCheckAnswered: 'Deployment check answered',
  /** Choice: the deployment check names a job to read (`reach`). */
  deploymentCheckReaches: 'Deployment check reads a job?',
  readInputError: 'Read input error',
  redriven: 'Redriven?',
  readRedriveError: 'Read redrive error',
  resumeWhere: 'Resume where?',
  nextStep: 'Next step?',
  safeToRestart: 'Safe to restart?',
  batchSettled: 'Batch settled?',
  waitBeforeNextBatch: 'Wait before next batch',
  /** `-bake-time`: the wait between two checks of the bake, after the last batch. */
  waitWhileBaking: 'Wait while baking',
  cancelRequested: 'Cancel requested',
  finishedWithErrors: 'Finished with errors?',
  whichError: 'Which error?',
  restartFinished: 'Restart finished',
  continued: 'Continued in new execution',
  lockedByAnotherRun: 'Locked by another run?',
  /** Succeed: the maintenance window ended; the output says how far the run got. */
  stoppedAtWindowEnd: 'StoppedAtWindowEnd',
  /** Succeed: a scheduled run found the job locked by another run and did nothing. */
  skippedJobLocked: 'SkippedJobLocked',
} as const;

/** `Fail` state IDs; each is also the execution's `Error` when it ends there. */
export const FailStates = {
  invalidInput: 'InvalidInput',
  jobNotFound: 'JobNotFound',
  jobLocked: 'JobLocked',
  rescheduleNotAllowed: 'RescheduleNotAllowed',
  unrecoverableError: 'UnrecoverableError',
  restartFailed: 'RestartFailed',
  canceled: 'Canceled',
  stepFailed: 'StepFailed',
  /** A deployment check's question was not answered (a timeout, the ask function failing). */
  deploymentCheckFailed: 'DeploymentCheckFailed',
  executionRedriven: 'ExecutionRedriven',
} as const;

/**
 * The task-token ask step. The local engine cannot run `.waitForTaskToken`: it overrides this
 * state by name. Its input is `{ FunctionName, Payload: AskEvent }` and its result must be an
 * `ApprovalAnswer` (or a thrown `States.Timeout` when nobody answers).
 */
export const ASK_STATE_NAME = TaskStates.ask;

/**
 * The continue-as-new step (`states:startExecution` of this same state machine). The local
 * engine overrides it by name: its input is `{ StateMachineArn, Input: ContinuationInput & {
 * AWS_STEP_FUNCTIONS_STARTED_BY_EXECUTION_ID } }`, and it should start a fresh run of the
 * definition with `Input`, returning `{ ExecutionArn, StartDate }`.
 */
export const CONTINUE_AS_NEW_STATE_NAME = TaskStates.continueAsNew;

/**
 * Which handler module serves each Lambda Task state. Every state here except the ask step is a
 * plain Lambda Task whose input is the handler's event and whose result is the handler's return
 * value (`payloadResponseOnly`), so a local engine can call the handler directly.
 */
export const TASK_STATE_HANDLERS: Readonly<Record<string, HandlerId>> = {
  [TaskStates.validateInput]: 'validate-input',
  [TaskStates.resumeRun]: 'resume-run',
  [TaskStates.plan]: 'plan',
  [TaskStates.lockJob]: 'lock-job',
  [TaskStates.checkDeployments]: 'check-deployments',
  [TaskStates.restartBatch]: 'restart-batch',
  [TaskStates.stopAllocations]: 'restart-batch',
  [TaskStates.triggerEvaluations]: 'trigger-evaluations',
  [TaskStates.awaitBatch]: 'await-batch',
  [TaskStates.awaitHealth]: 'await-health',
  [TaskStates.decide]: 'decide',
  [TaskStates.checkWhileBaking]: 'decide',
  [TaskStates.ask]: 'ask',
  [TaskStates.applyAnswer]: 'apply-answer',
  [TaskStates.finish]: 'finish',
  [TaskStates.releaseLock]: 'release-lock',
  [TaskStates.releaseLockAfterError]: 'release-lock',
  [TaskStates.validateDeploymentCheck]: 'validate-input',
  [TaskStates.askDeploymentCheck]: 'ask',
  [TaskStates.reachDeploymentCheck]: 'plan',
};
