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
  for (const dir of [
    'lib/stores',
    'lib/approvals',
    'lib/steps',
    'lib/alarms',
    'lambdas',
    'lambdas/private',
  ]) {
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

/**
 * One operation: the SDK's input, and the IAM action, resource and condition keys it is
 * authorized as.
 */
function row(
  op: string,
  input: Record<string, unknown>,
  action: string,
  resource: string,
  context: Record<string, unknown> = {},
) {
  return { op, input, action, resource, context };
}

const ROWS = [
  row(
    'S3:GetObject',
    { Bucket: BUCKET, Key: 'runs/r/plan' },
    's3:GetObject',
    'arn:aws:s3:::plans/runs/r/plan',
  ),
  row('S3:PutObject', { Bucket: BUCKET, Key: 'jobs/web' }, 's3:PutObject', 'arn:aws:s3:::plans/jobs/web'),
  row(
    'S3:PutObjectTagging',
    { Bucket: BUCKET, Key: 'runs/r/plan' },
    's3:PutObjectTagging',
    'arn:aws:s3:::plans/runs/r/plan',
  ),
  row('S3:ListObjectsV2', { Bucket: BUCKET, Prefix: 'runs/r/' }, 's3:ListBucket', 'arn:aws:s3:::plans', {
    's3:prefix': 'runs/r/',
  }),
  row('DynamoDB:GetItem', { TableName: TABLE, Key: key }, 'dynamodb:GetItem', TABLE_ARN, {
    'dynamodb:LeadingKeys': ['default/web'],
  }),
  row(
    'DynamoDB:PutItem',
    { TableName: TABLE, Item: { ...key, owner: { S: 'r' } } },
    'dynamodb:PutItem',
    TABLE_ARN,
    { 'dynamodb:LeadingKeys': ['default/web'] },
  ),
  row('DynamoDB:UpdateItem', { TableName: TABLE, Key: key }, 'dynamodb:UpdateItem', TABLE_ARN, {
    'dynamodb:LeadingKeys': ['default/web'],
  }),
  row('DynamoDB:DeleteItem', { TableName: TABLE, Key: key }, 'dynamodb:DeleteItem', TABLE_ARN, {
    'dynamodb:LeadingKeys': ['default/web'],
  }),
  row(
    'DynamoDB:Query',
    { TableName: TABLE, IndexName: 'owner-index' },
    'dynamodb:Query',
    `${TABLE_ARN}/index/owner-index`,
  ),
  row('DynamoDB:Scan', { TableName: TABLE }, 'dynamodb:Scan', TABLE_ARN),
  row(
    'SFN:DescribeExecution',
    { executionArn: 'arn:aws:states:us-east-1:123456789012:execution:M:r' },
    'states:DescribeExecution',
    'arn:aws:states:us-east-1:123456789012:execution:M:r',
  ),
  row(
    'SFN:GetExecutionHistory',
    { executionArn: 'arn:aws:states:us-east-1:123456789012:execution:M:r' },
    'states:GetExecutionHistory',
    'arn:aws:states:us-east-1:123456789012:execution:M:r',
  ),
  row('SFN:SendTaskSuccess', { taskToken: 't' }, 'states:SendTaskSuccess', STATE_MACHINE),
  row('SFN:SendTaskFailure', { taskToken: 't' }, 'states:SendTaskFailure', STATE_MACHINE),
  row(
    'SNS:Publish',
    { TopicArn: 'arn:aws:sns:us-east-1:123456789012:t' },
    'sns:Publish',
    'arn:aws:sns:us-east-1:123456789012:t',
  ),
  row(
    'Secrets Manager:GetSecretValue',
    { SecretId: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:s-AbCdEf' },
    'secretsmanager:GetSecretValue',
    'arn:aws:secretsmanager:us-east-1:123456789012:secret:s-AbCdEf',
  ),
  row(
    'CloudWatch:DescribeAlarms',
    { AlarmNames: ['api-5xx'], AlarmTypes: ['MetricAlarm', 'CompositeAlarm'] },
    'cloudwatch:DescribeAlarms',
    '*',
  ),
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

  it.each([
    ['a name', 'nomad-token'],
    ['a partial ARN', 'arn:aws:secretsmanager:us-east-1:123456789012:secret:nomad-token'],
  ])('authorizes a secret named by %s on its full ARN, as Secrets Manager resolves it', (_, secretId) => {
    // Arrange
    const full = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:nomad-token-AbCdEf';
    const other = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:nomad-token-tls-GhIjKl';

    // Act
    const request = iamRequestFor(
      'Secrets Manager',
      'GetSecretValue',
      { SecretId: secretId },
      {
        secretArns: [other, full],
      },
    );

    // Assert
    expect(request.resource).toBe(full);
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
