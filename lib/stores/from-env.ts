/**
 * Which store a function uses, read from the environment the construct sets: S3 and DynamoDB on
 * AWS, process-wide in-memory twins when no resource is named (the local engine, tests).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import {
  type ApprovalStore,
  DynamoDbApprovalStore,
  DynamoDbJobLock,
  type JobLock,
  MemoryApprovalStore,
  MemoryJobLock,
  MemoryPlanStore,
  type PlanStore,
  S3PlanStore,
} from './index';

/** Environment variables the construct sets on each function (only those it needs). */
export const ENV = {
  planBucket: 'PLAN_BUCKET',
  lockTable: 'LOCK_TABLE',
  approvalsTable: 'APPROVALS_TABLE',
  nomadTokenSecretArn: 'NOMAD_TOKEN_SECRET_ARN',
  nomadTlsSecretArn: 'NOMAD_TLS_SECRET_ARN',
  lockTtlSeconds: 'LOCK_TTL_SECONDS',
  approvalTtlSeconds: 'APPROVAL_TTL_SECONDS',
} as const;

/** Default lock TTL: a safety net far longer than any batch, refreshed before each one. */
export const DEFAULT_LOCK_TTL_SECONDS = 24 * 60 * 60;

// Created once per container: SDK clients and in-memory twins are reused across invocations,
// which is also what makes the local (in-process) run share one lock and one plan store.
let dynamo: DynamoDBClient | undefined;
let s3: S3Client | undefined;
const memory = {
  planStore: new MemoryPlanStore(),
  lock: new MemoryJobLock(),
  approvals: new MemoryApprovalStore(),
};

/** The process-wide in-memory stores used when no AWS resource is configured (local runs, tests). */
export const localStores: {
  readonly planStore: MemoryPlanStore;
  readonly lock: MemoryJobLock;
  readonly approvals: MemoryApprovalStore;
} = memory;

const dynamoClient = () => {
  dynamo ??= new DynamoDBClient({});
  return dynamo;
};

/** S3 when `PLAN_BUCKET` is set, else the process-wide in-memory store (local runs). */
export function planStoreFromEnv(env: NodeJS.ProcessEnv = process.env): PlanStore {
  const bucket = env[ENV.planBucket];
  if (bucket === undefined || bucket === '') return memory.planStore;
  s3 ??= new S3Client({});
  return new S3PlanStore(s3, bucket);
}

/** DynamoDB when `LOCK_TABLE` is set, else the process-wide in-memory lock. */
export function jobLockFromEnv(env: NodeJS.ProcessEnv = process.env): JobLock {
  const table = env[ENV.lockTable];
  return table === undefined || table === '' ? memory.lock : new DynamoDbJobLock(dynamoClient(), table);
}

/** DynamoDB when `APPROVALS_TABLE` is set, else the process-wide in-memory store. */
export function approvalStoreFromEnv(env: NodeJS.ProcessEnv = process.env): ApprovalStore {
  const table = env[ENV.approvalsTable];
  return table === undefined || table === ''
    ? memory.approvals
    : new DynamoDbApprovalStore(dynamoClient(), table);
}

/** A positive integer from the environment, or `fallback`. */
export function secondsFromEnv(name: string, fallback: number, env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}
