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
export {
  describeHolder,
  JobLockLostError,
  LockHeldError,
  SharedLockHeldError,
  type SharedLockHolder,
  SharedLockPermissionError,
  SharedLockUnavailableError,
  SharedLockUnsupportedError,
  StoreDecodeError,
  StoreError,
  StoreItemNotFoundError,
} from './errors';
export { type HeldLock, type JobLock, type LockKey, lockKeyString, MemoryJobLock } from './job-lock';
export {
  NomadControlRequests,
  type NomadPauseState,
  type StoredControlRequest,
} from './nomad-control-requests';
export {
  NomadRunHistory,
  type NomadRunHistoryOptions,
  RunHistoryConflictError,
} from './nomad-run-history';
export { NomadVariablesLock } from './nomad-variables-lock';
export { PairedJobLock } from './paired-job-lock';
export { CARRY_OVER_PREFIX, planKeys, runKeyPrefix } from './plan-keys';
export { ENDED_RUN_TAG, getIfPresent, MemoryPlanStore, type PlanStore } from './plan-store';
export { MemoryReplayGuard, type ReplayGuard } from './replay-guard';
export { LocalRuns, type RunStatus, type RunStatusSource, StepFunctionsRuns } from './run-status';
export { S3PlanStore } from './s3-plan-store';
export {
  AWS_SHARED_LOCK_TTL,
  awsLockIdentity,
  CONTROL_REQUEST_PREFIX,
  controlRequestPath,
  LOCAL_SHARED_LOCK_TTL_MS,
  localLockIdentity,
  SHARED_LOCK_PREFIX,
  type SharedLockLog,
  type SharedLockOptions,
  sharedLockMode,
  sharedLockPath,
  VARIABLES_LOCK_ENV,
} from './shared-lock-settings';
