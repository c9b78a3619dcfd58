/**
 * Which store a function uses, read from the environment the construct sets: S3 and DynamoDB on
 * AWS, process-wide in-memory twins when no resource is named (the local engine, tests).
 */
import type { ApprovalStore } from './approval-store';
import { MemoryApprovalStore } from './approval-store';
import { type JobLock, MemoryJobLock } from './job-lock';
import { MemoryPlanStore, type PlanStore } from './plan-store';

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
const memory = {
  planStore: new MemoryPlanStore(),
  lock: new MemoryJobLock(),
  approvals: new MemoryApprovalStore(),
};

/**
 * A store whose AWS implementation, and its SDK client, is loaded on the first call: a local
 * run, which uses the in-memory twins, never loads the S3 or DynamoDB SDK.
 */
function deferred<T extends object>(load: () => Promise<T>): T {
  let store: Promise<T> | undefined;
  return new Proxy({} as T, {
    // Not a promise itself: `then` stays undefined, so returning the store from an async function works.
    get: (_target, method) =>
      method === 'then'
        ? undefined
        : async (...args: unknown[]) => {
            store ??= load();
            const loaded = (await store) as Record<PropertyKey, (...a: unknown[]) => unknown>;
            return loaded[method]?.(...args);
          },
  });
}

let s3: Promise<import('@aws-sdk/client-s3').S3Client> | undefined;
let dynamo: Promise<import('@aws-sdk/client-dynamodb').DynamoDBClient> | undefined;
const s3Client = () => {
  s3 ??= import('@aws-sdk/client-s3').then(({ S3Client }) => new S3Client({}));
  return s3;
};
const dynamoClient = () => {
  dynamo ??= import('@aws-sdk/client-dynamodb').then(({ DynamoDBClient }) => new DynamoDBClient({}));
  return dynamo;
};

/** The process-wide in-memory stores used when no AWS resource is configured (local runs, tests). */
export const localStores: {
  readonly planStore: MemoryPlanStore;
  readonly lock: MemoryJobLock;
  readonly approvals: MemoryApprovalStore;
} = memory;

/** S3 when `PLAN_BUCKET` is set, else the process-wide in-memory store (local runs). */
export function planStoreFromEnv(env: NodeJS.ProcessEnv = process.env): PlanStore {
  const bucket = env[ENV.planBucket];
  if (bucket === undefined || bucket === '') return memory.planStore;
  return deferred(async () => new (await import('./s3-plan-store')).S3PlanStore(await s3Client(), bucket));
}

/** DynamoDB when `LOCK_TABLE` is set, else the process-wide in-memory lock. */
export function jobLockFromEnv(env: NodeJS.ProcessEnv = process.env): JobLock {
  const table = env[ENV.lockTable];
  if (table === undefined || table === '') return memory.lock;
  return deferred(
    async () => new (await import('./dynamodb-job-lock')).DynamoDbJobLock(await dynamoClient(), table),
  );
}

/** DynamoDB when `APPROVALS_TABLE` is set, else the process-wide in-memory store. */
export function approvalStoreFromEnv(env: NodeJS.ProcessEnv = process.env): ApprovalStore {
  const table = env[ENV.approvalsTable];
  if (table === undefined || table === '') return memory.approvals;
  return deferred(
    async () =>
      new (await import('./dynamodb-approval-store')).DynamoDbApprovalStore(await dynamoClient(), table),
  );
}

/** A positive integer from the environment, or `fallback`. */
export function secondsFromEnv(name: string, fallback: number, env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}
