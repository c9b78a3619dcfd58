/**
 * The map from each SDK operation the handlers use to what IAM authorizes (sdk-iam-actions.ts),
 * one row per operation, each checked against AWS's Service Authorization Reference: the action,
 * the resource type's ARN, and the condition keys the request carries.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { iamRequestFor, MAPPED_OPERATIONS } from './helpers/sdk-iam-actions';

/** The document client's commands, by the DynamoDB operation each sends. */
const DOCUMENT_COMMANDS: Readonly<Record<string, string>> = {
  Get: 'GetItem',
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  Query: 'Query',
  Scan: 'Scan',
};

/** Every SDK operation the code the Lambdas run sends (`new <Op>Command(` in lib/ and lambdas/, engines and CLI aside). */
function operationsSentByHandlers(): string[] {
  const ops = new Set<string>();
  for (const dir of ['lib/stores', 'lib/approvals', 'lib/steps', 'lambdas', 'lambdas/private']) {
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(join(dir, file), 'utf8');
      for (const [, op] of text.matchAll(/new (\w+)Command\(/g))
        ops.add(DOCUMENT_COMMANDS[op ?? ''] ?? op ?? '');
    }
  }
  return [...ops].sort();
}

const BUCKET = 'plans';
const TABLE = 'locks';
const TABLE_ARN = `arn:aws:dynamodb:us-east-1:123456789012:table/${TABLE}`;
const STATE_MACHINE = 'arn:aws:states:us-east-1:123456789012:stateMachine:M';
/** What the check knows besides each call's input: the table's key, the token's state machine. */
const FACTS = { partitionKeys: { [TABLE]: 'lockKey' }, taskTokenIssuers: new Map([['t', STATE_MACHINE]]) };
const key = { lockKey: { S: 'default/web' } };

const ROWS = [
  {
    op: 'S3:GetObject',
    input: { Bucket: BUCKET, Key: 'runs/r/plan' },
    action: 's3:GetObject',
    resource: 'arn:aws:s3:::plans/runs/r/plan',
    context: {},
  },
  {
    op: 'S3:PutObject',
    input: { Bucket: BUCKET, Key: 'jobs/web' },
    action: 's3:PutObject',
    resource: 'arn:aws:s3:::plans/jobs/web',
    context: {},
  },
  {
    op: 'S3:PutObjectTagging',
    input: { Bucket: BUCKET, Key: 'runs/r/plan' },
    action: 's3:PutObjectTagging',
    resource: 'arn:aws:s3:::plans/runs/r/plan',
    context: {},
  },
  {
    op: 'S3:ListObjectsV2',
    input: { Bucket: BUCKET, Prefix: 'runs/r/' },
    action: 's3:ListBucket',
    resource: 'arn:aws:s3:::plans',
    context: { 's3:prefix': 'runs/r/' },
  },
  {
    op: 'DynamoDB:GetItem',
    input: { TableName: TABLE, Key: key },
    action: 'dynamodb:GetItem',
    resource: TABLE_ARN,
    context: { 'dynamodb:LeadingKeys': ['default/web'] },
  },
  {
    op: 'DynamoDB:PutItem',
    input: { TableName: TABLE, Item: { ...key, owner: { S: 'r' } } },
    action: 'dynamodb:PutItem',
    resource: TABLE_ARN,
    context: { 'dynamodb:LeadingKeys': ['default/web'] },
  },
  {
    op: 'DynamoDB:UpdateItem',
    input: { TableName: TABLE, Key: key },
    action: 'dynamodb:UpdateItem',
    resource: TABLE_ARN,
    context: { 'dynamodb:LeadingKeys': ['default/web'] },
  },
  {
    op: 'DynamoDB:DeleteItem',
    input: { TableName: TABLE, Key: key },
    action: 'dynamodb:DeleteItem',
    resource: TABLE_ARN,
    context: { 'dynamodb:LeadingKeys': ['default/web'] },
  },
  {
    op: 'DynamoDB:Query',
    input: { TableName: TABLE, IndexName: 'owner-index' },
    action: 'dynamodb:Query',
    resource: `${TABLE_ARN}/index/owner-index`,
    context: {},
  },
  {
    op: 'DynamoDB:Scan',
    input: { TableName: TABLE },
    action: 'dynamodb:Scan',
    resource: TABLE_ARN,
    context: {},
  },
  {
    op: 'SFN:DescribeExecution',
    input: { executionArn: 'arn:aws:states:us-east-1:123456789012:execution:M:r' },
    action: 'states:DescribeExecution',
    resource: 'arn:aws:states:us-east-1:123456789012:execution:M:r',
    context: {},
  },
  {
    op: 'SFN:SendTaskSuccess',
    input: { taskToken: 't' },
    action: 'states:SendTaskSuccess',
    resource: STATE_MACHINE,
    context: {},
  },
  {
    op: 'SFN:SendTaskFailure',
    input: { taskToken: 't' },
    action: 'states:SendTaskFailure',
    resource: STATE_MACHINE,
    context: {},
  },
  {
    op: 'SNS:Publish',
    input: { TopicArn: 'arn:aws:sns:us-east-1:123456789012:t' },
    action: 'sns:Publish',
    resource: 'arn:aws:sns:us-east-1:123456789012:t',
    context: {},
  },
  {
    op: 'Secrets Manager:GetSecretValue',
    input: { SecretId: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:s-AbCdEf' },
    action: 'secretsmanager:GetSecretValue',
    resource: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:s-AbCdEf',
    context: {},
  },
];

describe('iamRequestFor', () => {
  it.each(ROWS)('maps $op to $action on its resource', ({ op, input, action, resource, context }) => {
    // Arrange
    const [service, operation] = op.split(':') as [string, string];

    // Act
    const request = iamRequestFor(service, operation, input, FACTS);

    // Assert
    expect(request).toEqual({ action, resource, context });
  });

  it('has a row above for every operation it maps', () => {
    // Assert
    expect(ROWS.map((r) => r.op).sort()).toEqual([...MAPPED_OPERATIONS].sort());
  });

  it('maps every operation the handlers send', () => {
    // Arrange
    const mapped = new Set(MAPPED_OPERATIONS.map((op) => op.split(':')[1]));

    // Act
    const unmapped = operationsSentByHandlers().filter((op) => !mapped.has(op));

    // Assert
    expect(unmapped).toEqual([]);
  });

  it('refuses a task token whose state machine it was not told', () => {
    // Act
    const act = () => iamRequestFor('SFN', 'SendTaskSuccess', { taskToken: 'other' }, FACTS);

    // Assert
    expect(act).toThrow('does not know which state machine issued this task token');
  });

  it('refuses an operation it does not map, naming where to add it', () => {
    // Act
    const act = () => iamRequestFor('S3', 'DeleteObject', { Bucket: BUCKET, Key: 'k' });

    // Assert
    expect(act).toThrow('No IAM mapping for S3 DeleteObject: add it to test/iam/helpers/sdk-iam-actions.ts');
  });
});
