/**
 * The approval store on DynamoDB: one item per question, answered at most once (conditional write).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
} from '@aws-sdk/lib-dynamodb';
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

/** Checks an item read back (the document client has already turned attributes into values). */
function decodeApproval(item: Record<string, unknown>): Approval {
  for (const f of STRING_FIELDS) {
    if (typeof item[f] !== 'string')
      throw new StoreDecodeError(`Approval item lacks string attribute "${f}"`);
  }
  for (const f of NUMBER_FIELDS) {
    if (typeof item[f] !== 'number' || !Number.isFinite(item[f])) {
      throw new StoreDecodeError(`Approval item lacks number attribute "${f}"`);
    }
  }
  const approval = Object.fromEntries([...STRING_FIELDS, ...NUMBER_FIELDS].map((f) => [f, item[f]]));
  return approval as unknown as Approval;
}

/** Pending questions in DynamoDB, keyed by approval id, with a GSI on the execution. */
export class DynamoDbApprovalStore implements ApprovalStore {
  private readonly documents: DynamoDBDocumentClient;

  public constructor(
    client: DynamoDBClient,
    private readonly tableName: string,
  ) {
    this.documents = DynamoDBDocumentClient.from(client);
  }

  public async put(approval: Approval): Promise<void> {
    await this.documents.send(new PutCommand({ TableName: this.tableName, Item: { ...approval } }));
  }

  public async get(approvalId: string): Promise<Approval> {
    const out = await this.documents.send(
      new GetCommand({ TableName: this.tableName, Key: { approvalId }, ConsistentRead: true }),
    );
    if (out.Item === undefined)
      throw new StoreItemNotFoundError(`No pending question with id "${approvalId}"`);
    return decodeApproval(out.Item);
  }

  public async listByExecution(executionId: string): Promise<Approval[]> {
    const out = await this.documents.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: APPROVALS_TABLE_SCHEMA.executionIndex,
        KeyConditionExpression: 'executionId = :e',
        ExpressionAttributeValues: { ':e': executionId },
      }),
    );
    return (out.Items ?? []).map(decodeApproval).sort((a, b) => a.createdAt - b.createdAt);
  }

  public async delete(approvalId: string): Promise<void> {
    await this.documents.send(new DeleteCommand({ TableName: this.tableName, Key: { approvalId } }));
  }
}
