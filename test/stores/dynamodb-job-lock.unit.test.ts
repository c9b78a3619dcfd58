import {
  ConditionalCheckFailedException,
  DeleteItemCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoDbJobLock, LockHeldError } from '../../lib/stores';

const ddb = mockClient(DynamoDBClient);
const key = { namespace: 'default', jobId: 'web' };
const owner = 'arn:aws:states:us-east-1:123456789012:execution:m:run-1';
const now = () => 1_700_000_000_000;

const conditionFailed = (item?: Record<string, { S: string }>) =>
  new ConditionalCheckFailedException({
    message: 'The conditional request failed',
    $metadata: {},
    ...(item ? { Item: item } : {}),
  });

describe('DynamoDbJobLock', () => {
  afterEach(() => ddb.reset());

  describe('acquire', () => {
    it('puts the lock item with a TTL under a condition that admits only a free or own lock', async () => {
      // Arrange: not held by this run yet, so the refresh does not apply.
      ddb.on(UpdateItemCommand).rejects(conditionFailed());
      ddb.on(PutItemCommand).resolves({});
      const lock = new DynamoDbJobLock(new DynamoDBClient({}), 'locks', now);

      // Act
      await lock.acquire(key, { owner: owner, ttlSeconds: 3600 });

      // Assert
      const input = ddb.commandCalls(PutItemCommand)[0]?.args[0].input;
      expect(input).toMatchObject({
        TableName: 'locks',
        Item: {
          lockKey: { S: 'default/web' },
          owner: { S: owner },
          expiresAt: { N: String(1_700_000_000 + 3600) },
        },
        ConditionExpression: 'attribute_not_exists(lockKey) OR #owner = :holder',
        ExpressionAttributeValues: { ':holder': { S: owner } },
      });
    });

    it('refreshes its own lock by extending the lease only, so a cancel flag written meanwhile stays', async () => {
      // Arrange
      ddb.on(UpdateItemCommand).resolves({});
      const lock = new DynamoDbJobLock(new DynamoDBClient({}), 'locks', now);

      // Act
      await lock.acquire(key, { owner: owner, ttlSeconds: 3600 });

      // Assert
      expect(ddb.commandCalls(PutItemCommand)).toHaveLength(0);
      expect(ddb.commandCalls(UpdateItemCommand)[0]?.args[0].input).toMatchObject({
        Key: { lockKey: { S: 'default/web' } },
        UpdateExpression: 'SET expiresAt = :expires',
        ConditionExpression: '#owner = :owner',
        ExpressionAttributeValues: {
          ':owner': { S: owner },
          ':expires': { N: String(1_700_000_000 + 3600) },
        },
      });
    });

    it('fails with the holder named when another run holds the lock', async () => {
      // Arrange
      ddb.on(UpdateItemCommand).rejects(conditionFailed());
      ddb.on(PutItemCommand).rejects(conditionFailed({ owner: { S: 'arn:other-run' } }));
      const lock = new DynamoDbJobLock(new DynamoDBClient({}), 'locks', now);

      // Act
      const result = lock.acquire(key, { owner: owner, ttlSeconds: 3600 });

      // Assert
      await expect(result).rejects.toBeInstanceOf(LockHeldError);
      await expect(result).rejects.toThrow(
        'Job "default/web" is being restarted by execution "arn:other-run"',
      );
    });
  });

  describe('release', () => {
    it.each([
      { name: 'deletes the lock this run holds', reply: 'ok', expected: { key } },
      { name: 'leaves another run’s lock alone', reply: 'condition', expected: undefined },
    ])('$name', async ({ reply, expected }) => {
      // Arrange
      if (reply === 'ok') ddb.on(DeleteItemCommand).resolves({});
      else ddb.on(DeleteItemCommand).rejects(conditionFailed());
      const lock = new DynamoDbJobLock(new DynamoDBClient({}), 'locks', now);

      // Act
      const released = await lock.release(key, owner);

      // Assert
      expect(released).toEqual(expected);
      expect(ddb.commandCalls(DeleteItemCommand)[0]?.args[0].input).toMatchObject({
        Key: { lockKey: { S: 'default/web' } },
        ConditionExpression: '#owner = :owner',
      });
    });
  });

  describe('keysHeldBy', () => {
    it('finds the owner’s jobs through the owner index and deletes nothing', async () => {
      // Arrange
      ddb
        .on(QueryCommand)
        .resolves({ Items: [{ lockKey: { S: 'prod/api' } }, { lockKey: { S: 'default/web' } }] });
      const lock = new DynamoDbJobLock(new DynamoDBClient({}), 'locks', now);

      // Act
      const keys = await lock.keysHeldBy(owner);

      // Assert
      expect(keys).toEqual([
        { namespace: 'prod', jobId: 'api' },
        { namespace: 'default', jobId: 'web' },
      ]);
      expect(ddb.commandCalls(QueryCommand)[0]?.args[0].input).toMatchObject({
        IndexName: 'owner-index',
        ExpressionAttributeValues: { ':owner': { S: owner } },
      });
      expect(ddb.commandCalls(DeleteItemCommand)).toHaveLength(0);
    });
  });

  describe('requestCancel and isCancelRequested', () => {
    it('flags a held lock and reads the flag back for its owner only', async () => {
      // Arrange
      ddb.on(UpdateItemCommand).resolves({});
      ddb.on(GetItemCommand).resolves({ Item: { owner: { S: owner }, cancelRequestedAt: { N: '1' } } });
      const lock = new DynamoDbJobLock(new DynamoDBClient({}), 'locks', now);

      // Act
      const flagged = await lock.requestCancel(key, owner);
      const forOwner = await lock.isCancelRequested(key, owner);
      const forOther = await lock.isCancelRequested(key, 'arn:other-run');

      // Assert
      expect(flagged).toBe(true);
      expect(forOwner).toBe(true);
      expect(forOther).toBe(false);
      expect(ddb.commandCalls(UpdateItemCommand)[0]?.args[0].input).toMatchObject({
        ConditionExpression: '#owner = :owner',
        ExpressionAttributeValues: { ':owner': { S: owner } },
      });
    });

    it('reports no cancel target when the named run does not hold the lock', async () => {
      // Arrange
      ddb.on(UpdateItemCommand).rejects(conditionFailed());
      const lock = new DynamoDbJobLock(new DynamoDBClient({}), 'locks', now);

      // Act
      const flagged = await lock.requestCancel(key, 'arn:an-old-run');

      // Assert
      expect(flagged).toBe(false);
    });
  });
});
