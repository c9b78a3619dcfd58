/**
 * The approval store on DynamoDB: one item per question, answered at most once (conditional write).
 */
import {
  type AttributeValue,
  DeleteItemCommand,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
} from '@aws-sdk/client-dynamodb';
import type { Approval, ApprovalStore } from './approval-store';
import { StoreDecodeError, StoreItemNotFoundError } from './errors';

/** Attribute and index names of the approvals table; the construct creates the table with these. */
export const APPROVALS_TABLE_SCHEMA = {
  partitionKey: 'approvalId',
  executionIndex: 'execution-index',
  executionAttribute: 'executionId',
  ttlAttribute: 'expiresAt',
} as const;

const STRING_FIELDS = [
  'approvalId',
  'executionId',
  'taskToken',
  'kind',
  'prompt',
  'summary',
  'jobId',
  'namespace',
] as const;
const NUMBER_FIELDS = ['createdAt', 'expiresAt'] as const;

function toItem(a: Approval): Record<string, AttributeValue> {
  const item: Record<string, AttributeValue> = {};
  for (const f of STRING_FIELDS) item[f] = { S: a[f] };
  for (const f of NUMBER_FIELDS) item[f] = { N: String(a[f]) };
  return item;
}

function fromItem(item: Record<string, AttributeValue>): Approval {
  const strings: Record<string, string> = {};
  for (const f of STRING_FIELDS) {
    const v = item[f]?.S;
    if (v === undefined) throw new StoreDecodeError(`Approval item lacks string attribute "${f}"`);
    strings[f] = v;
  }
  const numbers: Record<string, number> = {};
  for (const f of NUMBER_FIELDS) {
    const v = Number(item[f]?.N);
    if (!Number.isFinite(v)) throw new StoreDecodeError(`Approval item lacks number attribute "${f}"`);
    numbers[f] = v;
  }
  return {
    approvalId: strings['approvalId'] ?? '',
    executionId: strings['executionId'] ?? '',
    taskToken: strings['taskToken'] ?? '',
    kind: strings['kind'] ?? '',
    prompt: strings['prompt'] ?? '',
    summary: strings['summary'] ?? '',
    jobId: strings['jobId'] ?? '',
    namespace: strings['namespace'] ?? '',
    createdAt: numbers['createdAt'] ?? 0,
    expiresAt: numbers['expiresAt'] ?? 0,
  };
}

/** Pending questions in DynamoDB, keyed by approval id, with a GSI on the execution. */
export class DynamoDbApprovalStore implements ApprovalStore {
  public constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
  ) {}

  public async put(approval: Approval): Promise<void> {
    await this.client.send(new PutItemCommand({ TableName: this.tableName, Item: toItem(approval) }));
  }

  public async get(approvalId: string): Promise<Approval> {
    const out = await this.client.send(
      new GetItemCommand({
        TableName: this.tableName,
        Key: { approvalId: { S: approvalId } },
        ConsistentRead: true,
      }),
    );
    if (out.Item === undefined)
      throw new StoreItemNotFoundError(`No pending question with id "${approvalId}"`);
    return fromItem(out.Item);
  }

  public async listByExecution(executionId: string): Promise<Approval[]> {
    const out = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: APPROVALS_TABLE_SCHEMA.executionIndex,
        KeyConditionExpression: 'executionId = :e',
        ExpressionAttributeValues: { ':e': { S: executionId } },
      }),
    );
    return (out.Items ?? []).map(fromItem).sort((a, b) => a.createdAt - b.createdAt);
  }

  public async delete(approvalId: string): Promise<void> {
    await this.client.send(
      new DeleteItemCommand({ TableName: this.tableName, Key: { approvalId: { S: approvalId } } }),
    );
  }
}
