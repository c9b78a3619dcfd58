/**
 * Which store a function uses, read from the environment the construct sets: S3 and DynamoDB on
 * AWS, process-wide in-memory twins when no resource is named (the local engine, tests).
 *
 * The AWS SDK clients are loaded on first use only: a local run never needs them, and loading
 * them is most of what a terminal would otherwise wait for before its first Nomad request.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import type { SFNClient } from '@aws-sdk/client-sfn';
import { type ApprovalStore, MemoryApprovalStore } from './approval-store';
import { awsSdkClient } from './aws-client-config';
import { type JobLock, MemoryJobLock } from './job-lock';
import { MemoryPlanStore, type PlanStore } from './plan-store';
import { MemoryReplayGuard, type ReplayGuard } from './replay-guard';
import { LocalRuns, type RunStatusSource } from './run-status';
import { MemoryRunThreadStore, type RunThreadStore } from './run-thread-store';

/** Environment variables the construct sets on each function (only those it needs). */
export const ENV = {
  planBucket: 'PLAN_BUCKET',
  lockTable: 'LOCK_TABLE',
  approvalsTable: 'APPROVALS_TABLE',
  nomadTokenSecretArn: 'NOMAD_TOKEN_SECRET_ARN',
  nomadTlsSecretArn: 'NOMAD_TLS_SECRET_ARN',
  /** The Consul token's secret (`-wait-healthy`'s Consul reads); Consul's address is `CONSUL_HTTP_ADDR`. */
  consulTokenSecretArn: 'CONSUL_TOKEN_SECRET_ARN',
  lockTtlSeconds: 'LOCK_TTL_SECONDS',
  approvalTtlSeconds: 'APPROVAL_TTL_SECONDS',
} as const;

/** Default lock TTL: a safety net far longer than any batch, refreshed before each one. */
export const DEFAULT_LOCK_TTL_SECONDS = 24 * 60 * 60;

/** The lease a job lock is taken or extended for: `LOCK_TTL_SECONDS`, else the default. */
export function lockLeaseSeconds(env: NodeJS.ProcessEnv = process.env): number {
  return secondsFromEnv(ENV.lockTtlSeconds, DEFAULT_LOCK_TTL_SECONDS, env);
}

// Created once per container: SDK clients and in-memory twins are reused across invocations,
// which is also what makes the local (in-process) run share one lock and one plan store.
let dynamo: DynamoDBClient | undefined;
let s3: S3Client | undefined;
let sfn: SFNClient | undefined;
const memory = {
  planStore: new MemoryPlanStore(),
  lock: new MemoryJobLock(),
  approvals: new MemoryApprovalStore(),
  replays: new MemoryReplayGuard(),
  runs: new LocalRuns(),
  runThreads: new MemoryRunThreadStore(),
};

/** The process-wide in-memory stores used when no AWS resource is configured (local runs, tests). */
export const localStores: {
  readonly planStore: MemoryPlanStore;
  readonly lock: MemoryJobLock;
  readonly approvals: MemoryApprovalStore;
  /** Signed chat and webhook requests already seen (the approval endpoint run in-process). */
  readonly replays: MemoryReplayGuard;
  /** The local runs in progress: who may keep a lock. */
  readonly runs: LocalRuns;
  /** Runs' live chat threads (the notifier run in-process). */
  readonly runThreads: MemoryRunThreadStore;
} = memory;

async function dynamoClient(): Promise<DynamoDBClient> {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  dynamo ??= awsSdkClient(DynamoDBClient, {});
  return dynamo;
}

/**
 * A store whose implementation is loaded on its first call. Every store method is async, so a
 * caller cannot tell the difference.
 */
function loadedOnFirstCall<T extends object>(load: () => Promise<T>): T {
  let loaded: Promise<T> | undefined;
  return new Proxy({} as T, {
    // Not a promise itself: without this `then`, returning or awaiting the store (an async
    // factory, `await lock`) would call it as a thenable and never settle.
    get: (_target, method) =>
      method === 'then'
        ? undefined
        : async (...args: unknown[]) => {
            loaded ??= load();
            const store = (await loaded) as Record<PropertyKey, (...a: unknown[]) => unknown>;
            return store[method]?.(...args);
          },
  });
}

/**
 * The store on the AWS resource the variable `name` names, loaded on its first call; `local`
 * when the variable is unset or empty.
 */
function storeFromEnv<T extends object>(
  env: NodeJS.ProcessEnv,
  name: string,
  local: T,
  load: (resource: string) => Promise<T>,
): T {
  const resource = env[name];
  if (resource === undefined || resource === '') return local;
  return loadedOnFirstCall(() => load(resource));
}

/** S3 when `PLAN_BUCKET` is set, else the process-wide in-memory store (local runs). */
export function planStoreFromEnv(env: NodeJS.ProcessEnv = process.env): PlanStore {
  return storeFromEnv<PlanStore>(env, ENV.planBucket, memory.planStore, async (bucket) => {
    const [{ S3Client }, { S3PlanStore }] = await Promise.all([
      import('@aws-sdk/client-s3'),
      import('./s3-plan-store'),
    ]);
    s3 ??= awsSdkClient(S3Client, {});
    return new S3PlanStore(s3, bucket);
  });
}

/**
 * DynamoDB when `LOCK_TABLE` is set, else the process-wide in-memory lock. `now` (Unix ms) dates
 * the leases: the steps' clock, simulated in tests.
 */
export function jobLockFromEnv(env: NodeJS.ProcessEnv = process.env, now: () => number = Date.now): JobLock {
  return storeFromEnv<JobLock>(env, ENV.lockTable, memory.lock, async (table) => {
    const { DynamoDbJobLock } = await import('./dynamodb-job-lock');
    return new DynamoDbJobLock(await dynamoClient(), table, now);
  });
}

/** DynamoDB when `APPROVALS_TABLE` is set, else the process-wide in-memory store. */
export function approvalStoreFromEnv(env: NodeJS.ProcessEnv = process.env): ApprovalStore {
  return storeFromEnv<ApprovalStore>(env, ENV.approvalsTable, memory.approvals, async (table) => {
    const { DynamoDbApprovalStore } = await import('./dynamodb-approval-store');
    return new DynamoDbApprovalStore(await dynamoClient(), table);
  });
}

/** Run threads live in the approvals table when `APPROVALS_TABLE` is set, else in memory. */
export function runThreadStoreFromEnv(env: NodeJS.ProcessEnv = process.env): RunThreadStore {
  return storeFromEnv<RunThreadStore>(env, ENV.approvalsTable, memory.runThreads, async (table) => {
    const { DynamoDbRunThreadStore } = await import('./dynamodb-run-thread-store');
    return new DynamoDbRunThreadStore(await dynamoClient(), table);
  });
}

/** Replays are remembered in the approvals table when `APPROVALS_TABLE` is set, else in memory. */
export function replayGuardFromEnv(env: NodeJS.ProcessEnv = process.env): ReplayGuard {
  return storeFromEnv<ReplayGuard>(env, ENV.approvalsTable, memory.replays, async (table) => {
    const { DynamoDbReplayGuard } = await import('./dynamodb-replay-guard');
    return new DynamoDbReplayGuard(await dynamoClient(), table);
  });
}

/** Step Functions when the lock is DynamoDB's (on AWS), else this process's own runs. */
export function runStatusFromEnv(env: NodeJS.ProcessEnv = process.env): RunStatusSource {
  const table = env[ENV.lockTable];
  if (table === undefined || table === '') return memory.runs;
  return {
    status: async (runId) => {
      const [{ SFNClient }, { StepFunctionsRuns }] = await Promise.all([
        import('@aws-sdk/client-sfn'),
        import('./run-status'),
      ]);
      sfn ??= awsSdkClient(SFNClient, {});
      return new StepFunctionsRuns(sfn).status(runId);
    },
  };
}

/** A positive integer from the environment, or `fallback`. */
export function secondsFromEnv(name: string, fallback: number, env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}
