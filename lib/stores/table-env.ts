/**
 * The variables `nomad-restart -engine=aws` reads the workflow's tables from; the stack prints
 * their values as outputs (`ApprovalsTableName`, `LockTableName`).
 */

/** Names the approvals table (`NomadRestartWorkflow.approvalsTable`). */
export const APPROVALS_TABLE_ENV = 'NOMAD_RESTART_APPROVALS_TABLE';
/** Names the job-lock table (`NomadRestartWorkflow.lockTable`). */
export const LOCK_TABLE_ENV = 'NOMAD_RESTART_LOCK_TABLE';
