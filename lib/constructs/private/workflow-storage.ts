/**
 * The workflow's storage: the plan bucket (only an ended run's documents expire), the lock table
 * (one item per job, looked up by owner) and the approvals table (questions, by execution and
 * pending per state machine; a keys-only stream when chat channels are set).
 */
import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { APPROVALS_TABLE_SCHEMA } from '../../stores/dynamodb-approval-store';
import { LOCK_TABLE_SCHEMA } from '../../stores/dynamodb-job-lock';
import { ENDED_RUN_TAG } from '../../stores/plan-store';

/** What {@link createWorkflowStorage} needs. */
export interface WorkflowStorageProps {
  readonly planExpirationDays: number;
  readonly removalPolicy: RemovalPolicy;
  /** Whether the approvals table streams its keys (for the question notifier). */
  readonly approvalsStream: boolean;
}

/** The bucket and tables, created under `scope` with the ids the template has always had. */
export function createWorkflowStorage(
  scope: Construct,
  props: WorkflowStorageProps,
): { planBucket: s3.Bucket; lockTable: dynamodb.Table; approvalsTable: dynamodb.Table } {
  const planBucket = new s3.Bucket(scope, 'PlanBucket', {
    encryption: s3.BucketEncryption.S3_MANAGED,
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    enforceSSL: true,
    lifecycleRules: [
      // Only an ended run's documents expire (Release lock tags them): nothing a running
      // restart needs can, however long the run lasts.
      {
        expiration: Duration.days(props.planExpirationDays),
        tagFilters: { [ENDED_RUN_TAG.key]: ENDED_RUN_TAG.value },
      },
      { abortIncompleteMultipartUploadAfter: Duration.days(1) },
    ],
    removalPolicy: props.removalPolicy,
  });
  Validations.of(planBucket).acknowledge({
    id: 'AwsSolutions-S1',
    reason:
      "The bucket holds short-lived plan documents written and read only by this workflow's roles; access is audited through CloudTrail, and server access logs would need a second bucket for no added signal.",
  });

  // Both tables: on demand, recoverable to any point in 35 days, encrypted, kept as the stack says.
  const tableDefaults = {
    billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    encryption: dynamodb.TableEncryption.AWS_MANAGED,
    removalPolicy: props.removalPolicy,
  };
  const lockTable = new dynamodb.Table(scope, 'LockTable', {
    partitionKey: { name: LOCK_TABLE_SCHEMA.partitionKey, type: dynamodb.AttributeType.STRING },
    timeToLiveAttribute: LOCK_TABLE_SCHEMA.ttlAttribute,
    ...tableDefaults,
  });
  lockTable.addGlobalSecondaryIndex({
    indexName: LOCK_TABLE_SCHEMA.ownerIndex,
    partitionKey: { name: LOCK_TABLE_SCHEMA.ownerAttribute, type: dynamodb.AttributeType.STRING },
    projectionType: dynamodb.ProjectionType.KEYS_ONLY,
  });

  const approvalsTable = new dynamodb.Table(scope, 'ApprovalsTable', {
    partitionKey: { name: APPROVALS_TABLE_SCHEMA.partitionKey, type: dynamodb.AttributeType.STRING },
    timeToLiveAttribute: APPROVALS_TABLE_SCHEMA.ttlAttribute,
    ...tableDefaults,
    // Keys only: a stream record never carries a task token.
    ...(props.approvalsStream ? { stream: dynamodb.StreamViewType.KEYS_ONLY } : {}),
  });
  approvalsTable.addGlobalSecondaryIndex({
    indexName: APPROVALS_TABLE_SCHEMA.executionIndex,
    partitionKey: { name: APPROVALS_TABLE_SCHEMA.executionAttribute, type: dynamodb.AttributeType.STRING },
    projectionType: dynamodb.ProjectionType.ALL,
  });
  // Questions still pending, per state machine (`nomad-restart questions`): never the task token.
  approvalsTable.addGlobalSecondaryIndex({
    indexName: APPROVALS_TABLE_SCHEMA.pendingIndex,
    partitionKey: { name: APPROVALS_TABLE_SCHEMA.pendingAttribute, type: dynamodb.AttributeType.STRING },
    sortKey: { name: APPROVALS_TABLE_SCHEMA.pendingSortAttribute, type: dynamodb.AttributeType.NUMBER },
    projectionType: dynamodb.ProjectionType.INCLUDE,
    nonKeyAttributes: [...APPROVALS_TABLE_SCHEMA.pendingProjection],
  });
  return { planBucket, lockTable, approvalsTable };
}
