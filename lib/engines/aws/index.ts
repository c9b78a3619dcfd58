export { awsErrorCode } from '../../stores/aws-errors';
export { APPROVALS_TABLE_ENV, LOCK_TABLE_ENV } from '../../stores/table-env';
export { type AttachToFleetRequest, attachToFleet, type FleetRenderer } from './attach-to-fleet';
export { type AttachToRunRequest, attachToRun } from './attach-to-run';
export {
  type AwsCallName,
  type AwsRetryOptions,
  awsCall,
  PATIENT_MAX_BACKOFF_MS,
  patient,
  retryTransient,
  toAwsCallError,
} from './aws-call';
export {
  type AwsSession,
  type AwsSessionOptions,
  openAwsSession,
} from './aws-session';
export {
  type CancelRequest,
  findLateSuccessor,
  LATE_SUCCESSOR_LOOKS_MS,
  requestCancel,
  STOP_CAUSE,
  STOP_ERROR,
} from './cancel';
export { type AwsControlOutcome, type AwsRunControlDeps, controlAwsRun } from './control-run';
export * from './errors';
export { EXECUTION_NAME_RE, MAX_EXECUTION_NAME_LENGTH, newExecutionName } from './execution-name';
export { type ExecutionEnd, ExecutionTracker, type PendingAsk } from './execution-tracker';
export { DEFAULT_POLL_INTERVAL_MS, type FollowResult, type FollowRunRequest, followRun } from './follow-run';
export { FIRST_PAGE_SIZE, HistoryFollower, type HistoryPageSizes, WIDE_PAGE_SIZE } from './history-follower';
export { NOTICE_AFTER_FAILED_ATTEMPTS, OutageNotice } from './outage-notice';
export { type AskOutcome, type AskQuestion, QuestionBridge } from './question-bridge';
export { type RunFleetOnAwsRequest, runFleetOnAws } from './run-fleet-on-aws';
export { type RunIdentity, runIdentityOf, successorArnOf } from './run-identity';
export {
  type RunRestartOnAwsRequest,
  type RunRestartOnAwsResult,
  runRestartOnAws,
} from './run-restart-on-aws';
export {
  awsTaskAnswerClient,
  type HistoryPage,
  type HistoryPageRequest,
  type SfnCalls,
  sfnCalls,
} from './sfn-calls';
export {
  type ExecutionArn,
  executionArnOf,
  parseExecutionArn,
  parseStateMachineArn,
  type StateMachineArn,
} from './state-machine-arn';
