/**
 * Run threads on the approvals table: one item per run under `run:<runId>` (the table's stream
 * then tells the notifier of each recorded progress), expiring through the table's TTL. An edit is
 * claimed with a conditional write, so of two notifiers racing only one edits.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ApprovalMessage } from './approval-store';
import { awsErrorCode } from './aws-errors';
import { type RunThread, type RunThreadStore, runThreadKey } from './run-thread-store';

const isConditionFailure = (error: unknown) => awsErrorCode(error) === 'ConditionalCheckFailedException';

/** {@link RunThreadStore} on DynamoDB. */
export class DynamoDbRunThreadStore implements RunThreadStore {
  private readonly documents: DynamoDBDocumentClient;

  public constructor(
    client: DynamoDBClient,
    private readonly tableName: string,
  ) {
    this.documents = DynamoDBDocumentClient.from(client);
  }

  public async recordProgress(runId: string, progress: unknown, expiresAt: number): Promise<void> {
    await this.documents.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { approvalId: runThreadKey(runId) },
        UpdateExpression:
          'SET runId = :r, progress = :p, expiresAt = :e, messages = if_not_exists(messages, :none)',
        ExpressionAttributeValues: { ':r': runId, ':p': progress, ':e': expiresAt, ':none': {} },
      }),
    );
  }

  public async get(runId: string): Promise<RunThread | undefined> {
    const out = await this.documents.send(
      new GetCommand({
        TableName: this.tableName,
        Key: { approvalId: runThreadKey(runId) },
        ConsistentRead: true,
      }),
    );
    const item = out.Item;
    if (item === undefined) return undefined;
    const number = (v: unknown) => (typeof v === 'number' ? v : undefined);
    const editedAt = number(item['editedAt']);
    const notBefore = number(item['notBefore']);
    const endedAs = typeof item['endedAs'] === 'string' ? item['endedAs'] : undefined;
    return {
      runId,
      ...(item['progress'] === undefined ? {} : { progress: item['progress'] as unknown }),
      messages: (item['messages'] ?? {}) as Record<string, ApprovalMessage>,
      ...(editedAt === undefined ? {} : { editedAt }),
      ...(notBefore === undefined ? {} : { notBefore }),
      ...(endedAs === undefined ? {} : { endedAs }),
    };
  }

  public async recordMessage(runId: string, channel: string, message: ApprovalMessage): Promise<void> {
    await this.documents.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { approvalId: runThreadKey(runId) },
        UpdateExpression: 'SET messages.#c = :m',
        ConditionExpression: 'attribute_exists(approvalId)',
        ExpressionAttributeNames: { '#c': channel },
        ExpressionAttributeValues: { ':m': message },
      }),
    );
  }

  public async claimEdit(runId: string, now: number, intervalMs: number): Promise<boolean> {
    try {
      await this.documents.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { approvalId: runThreadKey(runId) },
          UpdateExpression: 'SET editedAt = :now',
          ConditionExpression:
            'attribute_exists(approvalId) AND (attribute_not_exists(editedAt) OR editedAt <= :cutoff) AND (attribute_not_exists(notBefore) OR notBefore <= :now)',
          ExpressionAttributeValues: { ':now': now, ':cutoff': now - intervalMs },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  public async recordEnd(runId: string, ending: string): Promise<void> {
    await this.documents.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { approvalId: runThreadKey(runId) },
        UpdateExpression: 'SET endedAs = :e',
        ConditionExpression: 'attribute_exists(approvalId)',
        ExpressionAttributeValues: { ':e': ending },
      }),
    );
  }

  public async deferEdits(runId: string, until: number): Promise<void> {
    await this.documents.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { approvalId: runThreadKey(runId) },
        UpdateExpression: 'SET notBefore = :u',
        ConditionExpression: 'attribute_exists(approvalId)',
        ExpressionAttributeValues: { ':u': until },
      }),
    );
  }
}
