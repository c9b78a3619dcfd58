/**
 * The job lock on DynamoDB: one holder per job and namespace, with a lease and a cancel flag.
 */
import {
  type AttributeValue,
  ConditionalCheckFailedException,
  DeleteItemCommand,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { LockHeldError } from './errors';
import { type JobLock, type LockKey, lockKeyString } from './job-lock';

/** Attribute and index names of the lock table; the construct creates the table with these. */
export const LOCK_TABLE_SCHEMA = {
  partitionKey: 'lockKey',
  ownerIndex: 'owner-index',
  ownerAttribute: 'owner',
  ttlAttribute: 'expiresAt',
} as const;

/**
 * The job lock as a DynamoDB item per job. Every write is conditional, so two executions racing
 * for the same job cannot both win, and a release never deletes another run's lock.
 */
export class DynamoDbJobLock implements JobLock {
  public constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
    private readonly now: () => number = Date.now,
  ) {}

  public async acquire(key: LockKey, owner: string, ttlSeconds: number): Promise<void> {
    const id = lockKeyString(key);
    const nowSeconds = Math.floor(this.now() / 1000);
    if (await this.refresh(id, owner, nowSeconds + ttlSeconds)) return;
    // Free or ours already (a retried take). Never another run's, whatever its lease says:
    // that takes a holder found not running (takeOver).
    await this.take(id, owner, ttlSeconds, owner);
  }

  public async takeOver(
    key: LockKey,
    owner: string,
    previousOwner: string,
    ttlSeconds: number,
  ): Promise<void> {
    // Still the dead run's (or gone): a new item, without its cancel flag.
    await this.take(lockKeyString(key), owner, ttlSeconds, previousOwner);
  }

  /** Writes a fresh lock item for `owner`, if the job's lock is free or held by `allowedHolder`. */
  private async take(id: string, owner: string, ttlSeconds: number, allowedHolder: string): Promise<void> {
    const nowSeconds = Math.floor(this.now() / 1000);
    try {
      await this.client.send(
        new PutItemCommand({
          TableName: this.tableName,
          Item: {
            lockKey: { S: id },
            owner: { S: owner },
            acquiredAt: { N: String(nowSeconds) },
            expiresAt: { N: String(nowSeconds + ttlSeconds) },
          },
          ConditionExpression: 'attribute_not_exists(lockKey) OR #owner = :holder',
          ExpressionAttributeNames: { '#owner': 'owner' },
          ExpressionAttributeValues: { ':holder': { S: allowedHolder } },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) {
        const holder = err.Item?.['owner']?.S ?? (await this.holderOf(id));
        throw new LockHeldError(id, holder ?? 'unknown', { cause: err });
      }
      throw err;
    }
  }

  /**
   * The run holding `id` now, read back (consistently) when a failed condition came without the
   * old item: `ReturnValuesOnConditionCheckFailure` is recent, and not every DynamoDB-compatible
   * service or proxy honours it. `undefined` when the lock was released in between.
   */
  private async holderOf(id: string): Promise<string | undefined> {
    return (await this.readItem(id))?.['owner']?.S;
  }

  /** The lock item of `id` as it is now (a consistent read), if any. */
  private async readItem(id: string): Promise<Record<string, AttributeValue> | undefined> {
    const out = await this.client.send(
      new GetItemCommand({ TableName: this.tableName, Key: { lockKey: { S: id } }, ConsistentRead: true }),
    );
    return out.Item;
  }

  /**
   * Extends the lease of a lock `owner` holds, keeping its other attributes: a PutItem would drop
   * a cancel flag written between the flag's read and this refresh. `false` when not ours.
   */
  private async refresh(id: string, owner: string, expiresAt: number): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateItemCommand({
          TableName: this.tableName,
          Key: { lockKey: { S: id } },
          UpdateExpression: 'SET expiresAt = :expires',
          ConditionExpression: '#owner = :owner',
          ExpressionAttributeNames: { '#owner': 'owner' },
          ExpressionAttributeValues: { ':owner': { S: owner }, ':expires': { N: String(expiresAt) } },
        }),
      );
      return true;
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return false;
      throw err;
    }
  }

  public async release(key: LockKey, owner: string): Promise<boolean> {
    try {
      await this.client.send(
        new DeleteItemCommand({
          TableName: this.tableName,
          Key: { lockKey: { S: lockKeyString(key) } },
          ConditionExpression: '#owner = :owner',
          ExpressionAttributeNames: { '#owner': 'owner' },
          ExpressionAttributeValues: { ':owner': { S: owner } },
        }),
      );
      return true;
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return false;
      throw err;
    }
  }

  public async releaseByOwner(owner: string): Promise<number> {
    const out = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: LOCK_TABLE_SCHEMA.ownerIndex,
        KeyConditionExpression: '#owner = :owner',
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: { ':owner': { S: owner } },
      }),
    );
    let released = 0;
    for (const item of out.Items ?? []) {
      const id = item['lockKey']?.S;
      if (id === undefined) continue;
      const slash = id.indexOf('/');
      const done = await this.release({ namespace: id.slice(0, slash), jobId: id.slice(slash + 1) }, owner);
      if (done) released += 1;
    }
    return released;
  }

  public async requestCancel(key: LockKey, owner: string): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateItemCommand({
          TableName: this.tableName,
          Key: { lockKey: { S: lockKeyString(key) } },
          UpdateExpression: 'SET cancelRequestedAt = :now',
          // Only the run named: a late cancel must not stop the next run of the same job.
          ConditionExpression: '#owner = :owner',
          ExpressionAttributeNames: { '#owner': 'owner' },
          ExpressionAttributeValues: {
            ':now': { N: String(Math.floor(this.now() / 1000)) },
            ':owner': { S: owner },
          },
        }),
      );
      return true;
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return false;
      throw err;
    }
  }

  public async isCancelRequested(key: LockKey, owner: string): Promise<boolean> {
    const item = await this.readItem(lockKeyString(key));
    return item?.['owner']?.S === owner && item['cancelRequestedAt'] !== undefined;
  }
}
