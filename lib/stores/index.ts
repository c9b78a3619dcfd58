export {
  type Approval,
  type ApprovalBatch,
  type ApprovalChange,
  type ApprovalDecision,
  type ApprovalMessage,
  type ApprovalStore,
  type DecideResult,
  type DecisionVia,
  isApprovalId,
  MemoryApprovalStore,
  newApprovalId,
  type PendingApproval,
  type PendingFilter,
  stateMachineArnOf,
} from './approval-store';
export { APPROVALS_TABLE_SCHEMA, DynamoDbApprovalStore } from './dynamodb-approval-store';
export { DynamoDbJobLock, LOCK_TABLE_SCHEMA } from './dynamodb-job-lock';
export { DynamoDbReplayGuard } from './dynamodb-replay-guard';
export { LockHeldError, StoreDecodeError, StoreError, StoreItemNotFoundError } from './errors';
export { type JobLock, type LockKey, lockKeyString, MemoryJobLock } from './job-lock';
export { ENDED_RUN_TAG, MemoryPlanStore, type PlanStore, runKeyPrefix } from './plan-store';
export { MemoryReplayGuard, type ReplayGuard } from './replay-guard';
export { LocalRuns, type RunStatus, type RunStatusSource, StepFunctionsRuns } from './run-status';
export { S3PlanStore } from './s3-plan-store';
