export { awsErrorCode } from '../../stores/aws-errors';
export { APPROVALS_TABLE_ENV, LOCK_TABLE_ENV } from '../../stores/table-env';
export type { AwsRetryOptions } from './aws-call';
export { type CancelRequest, requestCancel, STOP_CAUSE, STOP_ERROR } from './cancel';
export * from './errors';
export { type ExecutionEnd, ExecutionTracker, type PendingAsk } from './execution-tracker';
export { causeMessage, type ExitStatus, exitStatusOf } from './exit-status';
export { DEFAULT_HISTORY_PAGE_SIZE, HistoryFollower } from './history-follower';
export { ANSWERED_BY, answerPendingQuestion, answerText, toQuestion } from './question-bridge';
export {
  DEFAULT_POLL_INTERVAL_MS,
  type RunRestartOnAwsRequest,
  type RunRestartOnAwsResult,
  runRestartOnAws,
} from './run-restart-on-aws';
export { type HistoryPage, type SfnCalls, sfnCalls } from './sfn-calls';
export { parseStateMachineArn, type StateMachineArn } from './state-machine-arn';
