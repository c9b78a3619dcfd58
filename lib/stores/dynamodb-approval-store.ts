/**
 * The approval store on DynamoDB: one item per question, decided at most once (a conditional
 * write), with a sparse index of the questions still pending per state machine.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { decodeApproval } from './approval-item';
import {
  type Approval,
  type ApprovalDecision,
  type ApprovalMessage,
  type ApprovalStore,
  type DecideResult,
  type PendingApproval,
  type PendingFilter,
  stateMachineArnOf,
  toPending,
} from './approval-store';
import { awsErrorCode } from './aws-errors';
import { StoreItemNotFoundError } from './errors';

/** Attribute and index names of the approvals table; the construct creates the table with these. */
export const APPROVALS_TABLE_SCHEMA = {
  partitionKey: 'approvalId',
  executionIndex: 'execution-index',
  executionAttribute: 'executionId',
  ttlAttribute: 'expiresAt',
  /** Sparse: only undecided questions carry `stateMachineArn`, so the index lists what is pending. */
  pendingIndex: 'pending-index',
  pendingAttribute: 'stateMachineArn',
  pendingSortAttribute: 'createdAt',
  /** What the pending index holds besides its keys: everything `listPending` returns, never the task token. */
  pendingProjection: [
    'executionId',
    'kind',
    'prompt',
    'summary',
    'jobId',
    'namespace',
    'expiresAt',
    'region',
    'startedBy',
    'batch',
    'totals',
  ],
} as const;

const isConditionFailure = (error: unknown) => awsErrorCode(error) === 'ConditionalCheckFailedException';

/** Pending questions in DynamoDB, keyed by approval id, with GSIs on the execution and on pending ones. */
/** One page of a paginated read of the table, from where the previous page stopped. */
type PageRead = (start: { ExclusiveStartKey?: Record<string, unknown> }) => QueryCommand | ScanCommand;

export class DynamoDbApprovalStore implements ApprovalStore {
  private readonly documents: DynamoDBDocumentClient;

  public constructor(
    client: DynamoDBClient,
    private readonly tableName: string,
  ) {
    this.documents = DynamoDBDocumentClient.from(client, {
      marshallOptions: { removeUndefinedValues: true },
    });
  }

  public async put(approval: Approval): Promise<void> {
    const stateMachineArn = approval.stateMachineArn ?? stateMachineArnOf(approval.executionId);
    await this.documents.send(
      new PutCommand({
        TableName: this.tableName,
        // `messages` starts empty so that each channel can add its own entry without a race.
        Item: { messages: {}, ...approval, ...(stateMachineArn === undefined ? {} : { stateMachineArn }) },
      }),
    );
  }

  public async get(approvalId: string): Promise<Approval> {
    const out = await this.documents.send(
      new GetCommand({ TableName: this.tableName, Key: { approvalId }, ConsistentRead: true }),
    );
    if (out.Item === undefined) throw new StoreItemNotFoundError(`No question with id "${approvalId}"`);
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

  public listPending(filter: PendingFilter): Promise<PendingApproval[]> {
    const index = { TableName: this.tableName, IndexName: APPROVALS_TABLE_SCHEMA.pendingIndex };
    return this.pendingOf(
      (start) =>
        new QueryCommand({
          ...index,
          KeyConditionExpression: 'stateMachineArn = :m',
          ExpressionAttributeValues: { ':m': filter.stateMachineArn },
          ...start,
        }),
    );
  }

  public listAllPending(): Promise<PendingApproval[]> {
    const index = { TableName: this.tableName, IndexName: APPROVALS_TABLE_SCHEMA.pendingIndex };
    return this.pendingOf((start) => new ScanCommand({ ...index, ...start }));
  }

  /** The pending index's items `page` reads, as listed questions in creation order. */
  private async pendingOf(page: PageRead): Promise<PendingApproval[]> {
    const items = await this.allPages(page);
    // The index holds no task token: decode with a placeholder and drop it again.
    const pending = items.map((item) => toPending(decodeApproval({ ...item, taskToken: '' })));
    // A query is in creation order already; a scan is in no order.
    return pending.sort((a, b) => a.createdAt - b.createdAt);
  }

  public async decide(approvalId: string, decision: ApprovalDecision): Promise<DecideResult> {
    try {
      const out = await this.documents.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { approvalId },
          UpdateExpression: 'SET decision = :d REMOVE stateMachineArn',
          ConditionExpression: 'attribute_exists(approvalId) AND attribute_not_exists(decision)',
          ExpressionAttributeValues: { ':d': decision },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return { won: true, approval: decodeApproval(out.Attributes ?? {}) };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    // Lost the race, or the id is unknown: the item says which (throws when there is none).
    const current = await this.get(approvalId);
    if (current.decision === undefined) {
      throw new StoreItemNotFoundError(`Question "${approvalId}" changed while being decided; try again`);
    }
    return { won: false, decision: current.decision };
  }

  public async settleDecision(
    approvalId: string,
    decisionId: string,
    outcome: 'delivered' | 'run-finished',
  ): Promise<void> {
    await this.ifDecisionIs(approvalId, decisionId, {
      UpdateExpression: 'SET decision.outcome = :o',
      ExpressionAttributeValues: { ':o': outcome },
    });
  }

  public async withdrawDecision(approvalId: string, decisionId: string): Promise<void> {
    const current = await this.get(approvalId).catch(() => undefined);
    const stateMachineArn = current === undefined ? undefined : stateMachineArnOf(current.executionId);
    await this.ifDecisionIs(approvalId, decisionId, {
      UpdateExpression: `REMOVE decision${stateMachineArn === undefined ? '' : ' SET stateMachineArn = :m'}`,
      ExpressionAttributeValues: stateMachineArn === undefined ? {} : { ':m': stateMachineArn },
    });
  }

  public async reask(approvalId: string, taskToken: string): Promise<void> {
    // Only the token and the decision change: an update, not a put, so a chat message recorded by
    // the notifier meanwhile is kept (and the notifier, seeing it already shown, posts nothing).
    const current = await this.get(approvalId);
    const stateMachineArn = current.stateMachineArn ?? stateMachineArnOf(current.executionId);
    try {
      await this.documents.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { approvalId },
          UpdateExpression: `SET taskToken = :t${stateMachineArn === undefined ? '' : ', stateMachineArn = :m'} REMOVE decision`,
          ConditionExpression: 'attribute_exists(approvalId)',
          ExpressionAttributeValues: {
            ':t': taskToken,
            ...(stateMachineArn === undefined ? {} : { ':m': stateMachineArn }),
          },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw new StoreItemNotFoundError(`No question with id "${approvalId}"`);
      throw error;
    }
  }

  public async recordMessage(approvalId: string, channel: string, message: ApprovalMessage): Promise<void> {
    try {
      await this.documents.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { approvalId },
          UpdateExpression: 'SET messages.#c = :m',
          ConditionExpression: 'attribute_exists(approvalId)',
          ExpressionAttributeNames: { '#c': channel },
          ExpressionAttributeValues: { ':m': message },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw new StoreItemNotFoundError(`No question with id "${approvalId}"`);
      throw error;
    }
  }

  public async delete(approvalId: string): Promise<void> {
    await this.documents.send(new DeleteCommand({ TableName: this.tableName, Key: { approvalId } }));
  }

  /** Every item of a paginated read. */
  private async allPages(page: PageRead): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.documents.send(page(start === undefined ? {} : { ExclusiveStartKey: start }));
      items.push(...(out.Items ?? []));
      start = out.LastEvaluatedKey;
    } while (start !== undefined);
    return items;
  }

  /** An update applied only while `decisionId` is the recorded decision. */
  private async ifDecisionIs(
    approvalId: string,
    decisionId: string,
    update: { UpdateExpression: string; ExpressionAttributeValues: Record<string, unknown> },
  ): Promise<void> {
    try {
      await this.documents.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { approvalId },
          UpdateExpression: update.UpdateExpression,
          ConditionExpression: 'decision.decisionId = :id',
          ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':id': decisionId },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
}
