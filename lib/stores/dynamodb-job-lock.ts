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
import type { ControlRequest } from '../control/requests';
import { controlRequestOf, heldLockOf, keyOf } from './dynamodb-lock-item';
import { LockHeldError } from './errors';
import { type HeldLock, type JobLock, type LeaseRequest, type LockKey, lockKeyString } from './job-lock';

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

  public async acquire(key: LockKey, lease: LeaseRequest): Promise<HeldLock> {
    const id = lockKeyString(key);
    const refreshed = await this.refresh(id, lease);
    if (refreshed !== undefined) return heldLockOf(refreshed);
    // Free or ours already (a retried take). Never another run's, whatever its lease says:
    // that takes a holder found not running (takeOver).
    await this.take(id, lease, lease.owner);
    return { key };
  }

  public async takeOver(
    key: LockKey,
    lease: LeaseRequest,
    previousOwner: string,
  ): Promise<HeldLock | undefined> {
    // Still the dead run's (or gone): a new item, without its cancel flag or shared lock.
    const previous = await this.take(lockKeyString(key), lease, previousOwner);
    return previous === undefined ? undefined : heldLockOf(previous);
  }

  public async extend(key: LockKey, lease: LeaseRequest): Promise<HeldLock | undefined> {
    const refreshed = await this.refresh(lockKeyString(key), lease);
    return refreshed === undefined ? undefined : heldLockOf(refreshed);
  }

  public async held(key: LockKey, owner: string): Promise<HeldLock | undefined> {
    const item = await this.readItem(lockKeyString(key));
    return item?.['owner']?.S === owner ? heldLockOf(item) : undefined;
  }

  public async keepSharedLockId(key: LockKey, owner: string, sharedLockId: string): Promise<void> {
    await this.writeSharedLockId(lockKeyString(key), owner, sharedLockId);
  }

  public async forgetSharedLockId(key: LockKey, owner: string): Promise<void> {
    await this.writeSharedLockId(lockKeyString(key), owner, undefined);
  }

  /** Sets (or, `undefined`, removes) the shared lock's ID on the lock `owner` holds. */
  private async writeSharedLockId(
    id: string,
    owner: string,
    sharedLockId: string | undefined,
  ): Promise<void> {
    try {
      await this.client.send(
        new UpdateItemCommand({
          TableName: this.tableName,
          Key: { lockKey: { S: id } },
          UpdateExpression: sharedLockId === undefined ? 'REMOVE sharedLockId' : 'SET sharedLockId = :shared',
          ConditionExpression: '#owner = :owner',
          ExpressionAttributeNames: { '#owner': 'owner' },
          ExpressionAttributeValues: {
            ':owner': { S: owner },
            ...(sharedLockId === undefined ? {} : { ':shared': { S: sharedLockId } }),
          },
        }),
      );
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) throw await this.heldError(id, undefined, err);
      throw err;
    }
  }

  /**
   * Writes a fresh lock item for `lease.owner`, if the job's lock is free or held by `allowedHolder`;
   * answers the item it replaced, if any.
   */
  private async take(
    id: string,
    { owner, ttlSeconds, execution }: LeaseRequest,
    allowedHolder: string,
  ): Promise<Record<string, AttributeValue> | undefined> {
    const nowSeconds = Math.floor(this.now() / 1000);
    try {
      const out = await this.client.send(
        new PutItemCommand({
          TableName: this.tableName,
          Item: {
            lockKey: { S: id },
            owner: { S: owner },
            acquiredAt: { N: String(nowSeconds) },
            expiresAt: { N: String(nowSeconds + ttlSeconds) },
            ...(execution === undefined ? {} : { execution: { S: execution } }),
          },
          ConditionExpression: 'attribute_not_exists(lockKey) OR #owner = :holder',
          ExpressionAttributeNames: { '#owner': 'owner' },
          ExpressionAttributeValues: { ':holder': { S: allowedHolder } },
          ReturnValues: 'ALL_OLD',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return out.Attributes;
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) throw await this.heldError(id, err.Item, err);
      throw err;
    }
  }

  /**
   * The error naming the run holding `id` and the execution running it now, from the item a failed
   * condition returned, or read back (consistently) when it came without one:
   * `ReturnValuesOnConditionCheckFailure` is recent, and not every DynamoDB-compatible service or
   * proxy honours it.
   */
  private async heldError(
    id: string,
    item: Record<string, AttributeValue> | undefined,
    cause: unknown,
  ): Promise<LockHeldError> {
    const holder = item ?? (await this.readItem(id));
    return new LockHeldError(id, holder?.['owner']?.S ?? 'unknown', {
      cause,
      holderExecution: holder?.['execution']?.S,
    });
  }

  /** The lock item of `id` as it is now (a consistent read), if any. */
  private async readItem(id: string): Promise<Record<string, AttributeValue> | undefined> {
    const out = await this.client.send(
      new GetItemCommand({ TableName: this.tableName, Key: { lockKey: { S: id } }, ConsistentRead: true }),
    );
    return out.Item;
  }

  /**
   * Extends the lease of a lock `lease.owner` holds, keeping its other attributes: a PutItem would drop
   * a cancel flag written between the flag's read and this refresh. Answers the item as it is
   * now; `undefined` when not ours.
   */
  private async refresh(
    id: string,
    { owner, ttlSeconds, execution }: LeaseRequest,
  ): Promise<Record<string, AttributeValue> | undefined> {
    const expiresAt = Math.floor(this.now() / 1000) + ttlSeconds;
    try {
      const out = await this.client.send(
        new UpdateItemCommand({
          TableName: this.tableName,
          Key: { lockKey: { S: id } },
          UpdateExpression: `SET expiresAt = :expires${execution === undefined ? '' : ', execution = :execution'}`,
          ConditionExpression: '#owner = :owner',
          ExpressionAttributeNames: { '#owner': 'owner' },
          ExpressionAttributeValues: {
            ':owner': { S: owner },
            ':expires': { N: String(expiresAt) },
            ...(execution === undefined ? {} : { ':execution': { S: execution } }),
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return out.Attributes ?? { lockKey: { S: id } };
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return undefined;
      throw err;
    }
  }

  public async release(key: LockKey, owner: string): Promise<HeldLock | undefined> {
    try {
      const out = await this.client.send(
        new DeleteItemCommand({
          TableName: this.tableName,
          Key: { lockKey: { S: lockKeyString(key) } },
          ConditionExpression: '#owner = :owner',
          ExpressionAttributeNames: { '#owner': 'owner' },
          ExpressionAttributeValues: { ':owner': { S: owner } },
          ReturnValues: 'ALL_OLD',
        }),
      );
      return out.Attributes === undefined ? { key } : heldLockOf(out.Attributes);
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return undefined;
      throw err;
    }
  }

  /** Found through the owner index (keys only: each lock's shared lock ID is read with its item). */
  public async keysHeldBy(owner: string): Promise<LockKey[]> {
    const out = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: LOCK_TABLE_SCHEMA.ownerIndex,
        KeyConditionExpression: '#owner = :owner',
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: { ':owner': { S: owner } },
      }),
    );
    return (out.Items ?? []).flatMap((item) => {
      const id = item['lockKey']?.S;
      return id === undefined ? [] : [keyOf(id)];
    });
  }

  public requestCancel(key: LockKey, owner: string): Promise<boolean> {
    // Only the run named: a late cancel must not stop the next run of the same job.
    return this.updateOwned(key, owner, 'SET cancelRequestedAt = :now', {
      ':now': { N: String(Math.floor(this.now() / 1000)) },
    });
  }

  public async isCancelRequested(key: LockKey, owner: string): Promise<boolean> {
    const item = await this.readItem(lockKeyString(key));
    return item?.['owner']?.S === owner && item['cancelRequestedAt'] !== undefined;
  }

  public requestControl(key: LockKey, owner: string, request: ControlRequest): Promise<boolean> {
    // Only the run named: a late request must not steer the next run of the same job.
    return this.updateOwned(key, owner, 'SET controlRequest = :request', {
      ':request': { S: JSON.stringify(request) },
    });
  }

  public async controlRequest(key: LockKey, owner: string): Promise<ControlRequest | undefined> {
    const item = await this.readItem(lockKeyString(key));
    const text = item?.['owner']?.S === owner ? item['controlRequest']?.S : undefined;
    return text === undefined ? undefined : controlRequestOf(text);
  }

  public async clearControlRequest(key: LockKey, owner: string, request: ControlRequest): Promise<void> {
    // A newer request written since the run read this one is kept for its next safe point.
    await this.updateOwned(
      key,
      owner,
      'REMOVE controlRequest',
      { ':request': { S: JSON.stringify(request) } },
      'controlRequest = :request',
    );
  }

  /**
   * Updates the lock item of `key` with `update` if `owner` holds it (and `condition` holds, when
   * given); `false` when not.
   */
  private async updateOwned(
    key: LockKey,
    owner: string,
    update: string,
    values: Record<string, AttributeValue>,
    condition?: string,
  ): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateItemCommand({
          TableName: this.tableName,
          Key: { lockKey: { S: lockKeyString(key) } },
          UpdateExpression: update,
          ConditionExpression: `#owner = :owner${condition === undefined ? '' : ` AND ${condition}`}`,
          ExpressionAttributeNames: { '#owner': 'owner' },
          ExpressionAttributeValues: { ':owner': { S: owner }, ...values },
        }),
      );
      return true;
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return false;
      throw err;
    }
  }
}
