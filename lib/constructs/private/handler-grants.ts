/**
 * Least-privilege grants of the handlers to the plan bucket, the lock and approvals tables and
 * the state machine's own executions: each handler gets exactly the actions its step performs.
 */
import { ArnFormat, Stack, Token, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { APPROVALS_TABLE_SCHEMA } from '../../stores/dynamodb-approval-store';
import { LOCK_TABLE_SCHEMA } from '../../stores/dynamodb-job-lock';
import { CARRY_OVER_PREFIX } from '../../stores/plan-keys';
import { STALE_LOCK_HANDLER_ID } from '../../workflow/state-names';
import type { WorkflowFunctionId } from './task-functions';

/** The resources the handlers work on. */
export interface HandlerResources {
  readonly functions: Readonly<Record<WorkflowFunctionId, lambda.IFunction>>;
  readonly planBucket: s3.Bucket;
  readonly lockTable: dynamodb.Table;
  readonly approvalsTable: dynamodb.Table;
  /** The state machine's name: its executions are the only possible lock holders. */
  readonly stateMachineName: string;
}

/** Plan-bucket object actions per handler on `runs/*`; each that reads or tags may also list `runs/*`. */
const PLAN_ACCESS: Readonly<Partial<Record<WorkflowFunctionId, readonly string[]>>> = {
  // Reads the plan and journals of an earlier run of the job that never ended (earlier-run.ts).
  plan: ['s3:GetObject', 's3:PutObject'],
  'check-deployments': ['s3:GetObject', 's3:PutObject'],
  'restart-batch': ['s3:GetObject', 's3:PutObject'],
  'trigger-evaluations': ['s3:GetObject', 's3:PutObject'],
  'await-batch': ['s3:GetObject', 's3:PutObject'],
  'await-health': ['s3:GetObject', 's3:PutObject'],
  decide: ['s3:GetObject', 's3:PutObject'],
  'apply-answer': ['s3:GetObject', 's3:PutObject'],
  finish: ['s3:GetObject', 's3:PutObject'],
  // A scheduled run it skips for the lock reports the plan's allocations as stale (`startedBefore`).
  'lock-job': ['s3:GetObject'],
  // Its state budget (lambdas/private/state-budget-middleware.ts) sets an over-long event list aside.
  'resume-run': ['s3:PutObject'],
  // They end runs: list the run's documents and tag each so they may expire.
  'release-lock': ['s3:PutObjectTagging'],
  [STALE_LOCK_HANDLER_ID]: ['s3:PutObjectTagging'],
};

/** Grants every handler what its step needs, and acknowledges the wildcards that cannot be avoided. */
export function grantHandlerAccess(scope: Construct, r: HandlerResources): void {
  grantPlanAccess(scope, r);
  grantTableAccess(r);
  grantDescribeOwnExecutions(scope, r);
  grantAlarmReads(r);
}

/**
 * The functions that read `-stop-on-alarm` alarms (lib/steps/alarms): "Validate input" (each
 * alarm exists, before anything is touched), the guard before each batch, the health wait, and the
 * bake's checks (run by the decide function).
 */
export const READS_ALARMS: readonly WorkflowFunctionId[] = [
  'validate-input',
  'check-deployments',
  'await-health',
  'decide',
];

/**
 * `cloudwatch:DescribeAlarms` on Resource "*": the alarms are named by each run's input, not when
 * deploying, and a composite alarm is only answered to a permission scoped to "*"
 * (https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/API_DescribeAlarms.html). It
 * reads alarm states and configurations, nothing else.
 */
function grantAlarmReads(r: HandlerResources): void {
  for (const id of READS_ALARMS) {
    r.functions[id].addToRolePolicy(
      new iam.PolicyStatement({ actions: ['cloudwatch:DescribeAlarms'], resources: ['*'] }),
    );
  }
}

/**
 * Actions per handler on `jobs/*`, each job's record of the run holding it (earlier-run.ts): Lock
 * job names the run, Release lock marks it ended, Plan reads it to resume a run that never ended.
 */
const JOB_RECORD_ACCESS: Readonly<Partial<Record<WorkflowFunctionId, readonly string[]>>> = {
  plan: ['s3:GetObject'],
  'lock-job': ['s3:PutObject'],
  'release-lock': ['s3:GetObject', 's3:PutObject'],
};

/** Carry-over documents (a maintenance resumed in the next window): Plan reads, the window stop and Finish write. */
const CARRY_OVER_ACCESS: Readonly<Partial<Record<WorkflowFunctionId, readonly string[]>>> = {
  plan: ['s3:GetObject'],
  'check-deployments': ['s3:GetObject', 's3:PutObject'],
  finish: ['s3:PutObject'],
};

function grantPlanAccess(scope: Construct, r: HandlerResources): void {
  grantPrefix(scope, r, 'runs/', PLAN_ACCESS, 'Plan documents are per-run objects under runs/<run>/');
  grantPrefix(scope, r, 'jobs/', JOB_RECORD_ACCESS, 'Job records are per-job objects under jobs/<job>/');
  grantPrefix(
    scope,
    r,
    CARRY_OVER_PREFIX,
    CARRY_OVER_ACCESS,
    'Carry-over documents are one per schedule and job under maintenance/',
  );
}

/**
 * Whether a handler with these object actions must also list the prefix (`s3:ListBucket` with
 * `s3:prefix`): every reader, since without it a missing key is a 403 AccessDenied, which the
 * plan store cannot tell from a real failure, instead of NoSuchKey; and every handler that ends
 * runs, since `S3PlanStore.endRun` lists `runs/<run>/` (ListObjectsV2 is authorized as
 * `s3:ListBucket` on the bucket) to tag each document the run wrote, whichever step wrote it.
 */
function listsPrefix(actions: readonly string[]): boolean {
  return actions.includes('s3:GetObject') || actions.includes('s3:PutObjectTagging');
}

function grantPrefix(
  scope: Construct,
  r: HandlerResources,
  prefix: string,
  access: Readonly<Partial<Record<WorkflowFunctionId, readonly string[]>>>,
  why: string,
): void {
  for (const [handlerId, actions] of Object.entries(access)) {
    grantPlanObjects(scope, {
      fn: r.functions[handlerId as WorkflowFunctionId],
      planBucket: r.planBucket,
      prefix,
      actions,
      why,
    });
  }
}

/** One function's access to the plan bucket's objects under one prefix. */
export interface PlanObjectsGrant {
  readonly fn: lambda.IFunction;
  readonly planBucket: s3.Bucket;
  /** E.g. `runs/`: the grant covers `<prefix>*`. */
  readonly prefix: string;
  /** Object actions (`s3:GetObject`...); a reader or a tagger also lists the prefix. */
  readonly actions: readonly string[];
  /** Why these keys are under a wildcard, for the cdk-nag acknowledgement. */
  readonly why: string;
}

/** Grants `fn` the object actions under the prefix (and listing it, when it reads or tags). */
export function grantPlanObjects(scope: Construct, g: PlanObjectsGrant): void {
  const objects = g.planBucket.arnForObjects(`${g.prefix}*`);
  const bucketId = Stack.of(scope).getLogicalId(g.planBucket.node.defaultChild as s3.CfnBucket);
  g.fn.addToRolePolicy(new iam.PolicyStatement({ actions: [...g.actions], resources: [objects] }));
  if (listsPrefix(g.actions))
    g.fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [g.planBucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': [`${g.prefix}*`] } },
      }),
    );
  Validations.of(g.fn.role ?? scope).acknowledge({
    id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${g.prefix}*]`,
    reason: `${g.why}; the keys are not known when deploying.`,
  });
}

function grantTableAccess(r: HandlerResources): void {
  // Exact table and index ARNs: Table.grant() would add "<table>/index/*" to every grant.
  const table = (handlerId: WorkflowFunctionId, t: dynamodb.Table, actions: string[], indexName?: string) => {
    r.functions[handlerId].addToRolePolicy(
      new iam.PolicyStatement({
        actions,
        resources: indexName === undefined ? [t.tableArn] : [`${t.tableArn}/index/${indexName}`],
      }),
    );
  };
  // UpdateItem refreshes a lease in place (keeping a cancel flag, and names the execution running
  // the run: "Resume run" does that for a continued one); PutItem takes a lock; GetItem reads a
  // holder back where a failed condition returned none, and the shared lock's ID before a release;
  // DeleteItem gives the engine's lock back when the job's Nomad lock cannot be taken
  // (PairedJobLock.takeShared), so the run ends JobLocked, not denied.
  table('lock-job', r.lockTable, [
    'dynamodb:GetItem',
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'dynamodb:DeleteItem',
  ]);
  // Resume run reads the lock before it renews it: a continuation whose run holds no lock is refused.
  table('resume-run', r.lockTable, ['dynamodb:GetItem', 'dynamodb:UpdateItem']);
  // Check deployments renews the lease it finds; only Lock job takes a lock (PutItem).
  table('check-deployments', r.lockTable, ['dynamodb:GetItem', 'dynamodb:UpdateItem']);
  // Decide and the await slices keep the lease alive between safe points (a wait, a question).
  table('decide', r.lockTable, ['dynamodb:GetItem', 'dynamodb:UpdateItem']);
  table('await-batch', r.lockTable, ['dynamodb:UpdateItem']);
  table('await-health', r.lockTable, ['dynamodb:UpdateItem']);
  // Ask, the last step before a question, makes the lease outlast it.
  table('ask', r.lockTable, ['dynamodb:UpdateItem']);
  table('release-lock', r.lockTable, ['dynamodb:GetItem', 'dynamodb:DeleteItem']);
  // The stale-lock cleanup finds a dead run's jobs through the owner index (keys only), then
  // releases each as Release lock does: reads the shared lock's ID, frees Nomad's lock, deletes.
  table(STALE_LOCK_HANDLER_ID, r.lockTable, ['dynamodb:GetItem', 'dynamodb:DeleteItem']);
  table(STALE_LOCK_HANDLER_ID, r.lockTable, ['dynamodb:Query'], LOCK_TABLE_SCHEMA.ownerIndex);
  // A retried ask finds its first attempt's question by execution and points it at its new token.
  table('ask', r.approvalsTable, ['dynamodb:PutItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem']);
  table('ask', r.approvalsTable, ['dynamodb:Query'], APPROVALS_TABLE_SCHEMA.executionIndex);
  // A question that timed out is recorded as decided by its default (chat shows it).
  table('apply-answer', r.approvalsTable, ['dynamodb:GetItem', 'dynamodb:UpdateItem']);
  table('apply-answer', r.approvalsTable, ['dynamodb:Query'], APPROVALS_TABLE_SCHEMA.executionIndex);
  // An ended run's open questions are closed with a decision of their own (chat shows it); the
  // conditional write reads the item back when another decision came first.
  table(STALE_LOCK_HANDLER_ID, r.approvalsTable, ['dynamodb:GetItem', 'dynamodb:UpdateItem']);
  table(STALE_LOCK_HANDLER_ID, r.approvalsTable, ['dynamodb:Query'], APPROVALS_TABLE_SCHEMA.executionIndex);
}

/**
 * Lock job asks whether a lock's holder still runs before taking the lock over, and the
 * stale-lock handler reads the input EventBridge left out of a large execution's event: only
 * this state machine's executions.
 */
function grantDescribeOwnExecutions(scope: Construct, r: HandlerResources): void {
  for (const id of ['lock-job', STALE_LOCK_HANDLER_ID] as const) grantDescribeTo(scope, r, id);
}

function grantDescribeTo(scope: Construct, r: HandlerResources, id: WorkflowFunctionId): void {
  const fn = r.functions[id];
  // cdk-nag names an unresolved region or account by its pseudo parameter.
  const { region, account } = Stack.of(scope);
  const named = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<${pseudo}>` : value);
  Validations.of(fn.role ?? scope).acknowledge({
    id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:states:${named(region, 'AWS::Region')}:${named(account, 'AWS::AccountId')}:execution:${r.stateMachineName}:*]`,
    reason:
      'A lock holder (or an ended run) is any execution of this state machine; their names are not known when deploying.',
  });
  fn.addToRolePolicy(
    new iam.PolicyStatement({
      actions: ['states:DescribeExecution'],
      resources: [
        Stack.of(scope).formatArn({
          service: 'states',
          resource: 'execution',
          resourceName: `${r.stateMachineName}:*`,
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      ],
    }),
  );
}
