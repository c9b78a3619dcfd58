// Scenario: the store a handler gets from its environment. With no resource named it is the
// process-wide in-memory twin; with one, the S3 or DynamoDB store, whose SDK is loaded on the
// first call (a local run never loads it), and which behaves as the store itself.
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import {
  approvalStoreFromEnv,
  jobLockFromEnv,
  localStores,
  planStoreFromEnv,
} from '../../lib/stores/from-env';

const s3 = mockClient(S3Client);
const dynamo = mockClient(DynamoDBClient);
afterEach(() => {
  s3.reset();
  dynamo.reset();
});

describe('stores from the environment', () => {
  it('gives the in-memory twins when no resource is named', () => {
    // Act / Assert
    expect(planStoreFromEnv({})).toBe(localStores.planStore);
    expect(jobLockFromEnv({ LOCK_TABLE: '' })).toBe(localStores.lock);
    expect(approvalStoreFromEnv({})).toBe(localStores.approvals);
  });

  it('writes to the named bucket through S3 on the first call', async () => {
    // Arrange
    s3.on(PutObjectCommand).resolves({});
    const store = planStoreFromEnv({ PLAN_BUCKET: 'plans' });

    // Act
    await store.put('runs/r1/plan.json', { batches: [] });

    // Assert
    expect(s3.commandCalls(PutObjectCommand)[0]?.args[0].input).toMatchObject({
      Bucket: 'plans',
      Key: 'runs/r1/plan.json',
    });
  });

  it('reads the named lock table through DynamoDB, and is no promise itself', async () => {
    // Arrange
    dynamo.on(GetItemCommand).resolves({});
    const lock = jobLockFromEnv({ LOCK_TABLE: 'locks' });

    // Act
    const same = await Promise.resolve(lock);
    const cancel = await same.isCancelRequested({ namespace: 'default', jobId: 'web' }, 'run-1');

    // Assert
    expect(same).toBe(lock);
    expect(cancel).toBe(false);
    expect(dynamo.commandCalls(GetItemCommand)[0]?.args[0].input).toMatchObject({ TableName: 'locks' });
  });
});
