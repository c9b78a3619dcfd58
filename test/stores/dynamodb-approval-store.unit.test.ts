/**
 * The approval store against a mocked DynamoDB document client: what it writes and reads, and
 * that an item missing a field is refused instead of trusted. (Attribute types are the document
 * client's: strings as S, numbers as N, which the table's key, index and TTL attributes expect.)
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { type Approval, DynamoDbApprovalStore, newApprovalId } from '../../lib/stores';

const ddb = mockClient(DynamoDBDocumentClient);
const approval: Approval = {
  approvalId: 'id-1',
  executionId: 'arn:exec:1',
  taskToken: 'token-abc',
  kind: 'proceed',
  prompt: 'Proceed with the next batch? [Y/n]',
  summary: 'Batch 1 of 3: 2 restarted',
  jobId: 'web',
  namespace: 'default',
  createdAt: 100,
  expiresAt: 200,
};
const item: Record<string, unknown> = { ...approval };

describe('DynamoDbApprovalStore', () => {
  afterEach(() => ddb.reset());

  describe('put', () => {
    it('writes every field', async () => {
      // Arrange
      ddb.on(PutCommand).resolves({});
      const store = new DynamoDbApprovalStore(new DynamoDBClient({}), 'approvals');

      // Act
      await store.put(approval);

      // Assert
      expect(ddb.commandCalls(PutCommand)[0]?.args[0].input).toEqual({
        TableName: 'approvals',
        Item: { ...item, messages: {} },
      });
    });
  });

  describe('get', () => {
    it('reads an approval back', async () => {
      // Arrange
      ddb.on(GetCommand).resolves({ Item: item });
      const store = new DynamoDbApprovalStore(new DynamoDBClient({}), 'approvals');

      // Act
      const read = await store.get('id-1');

      // Assert
      expect(read).toEqual(approval);
    });

    it.each([
      { name: 'fails when the id is unknown', reply: {}, expectedErr: 'No question with id "id-1"' },
      {
        name: 'fails when an attribute is missing',
        reply: { Item: { ...item, prompt: undefined } },
        expectedErr: 'Approval item lacks string attribute "prompt"',
      },
      {
        name: 'fails when a number is not one',
        reply: { Item: { ...item, expiresAt: '200' } },
        expectedErr: 'Approval item lacks number attribute "expiresAt"',
      },
    ])('$name', async ({ reply, expectedErr }) => {
      // Arrange
      ddb.on(GetCommand).resolves(reply as never);
      const store = new DynamoDbApprovalStore(new DynamoDBClient({}), 'approvals');

      // Act
      const result = store.get('id-1');

      // Assert
      await expect(result).rejects.toThrow(expectedErr);
    });
  });

  describe('listByExecution', () => {
    it('queries the execution index and sorts oldest first', async () => {
      // Arrange
      ddb.on(QueryCommand).resolves({ Items: [{ ...item, approvalId: 'id-2', createdAt: 150 }, item] });
      const store = new DynamoDbApprovalStore(new DynamoDBClient({}), 'approvals');

      // Act
      const list = await store.listByExecution('arn:exec:1');

      // Assert
      expect(list.map((a) => a.approvalId)).toEqual(['id-1', 'id-2']);
      expect(ddb.commandCalls(QueryCommand)[0]?.args[0].input.IndexName).toBe('execution-index');
    });
  });

  describe('delete', () => {
    it('deletes by approval id', async () => {
      // Arrange
      ddb.on(DeleteCommand).resolves({});
      const store = new DynamoDbApprovalStore(new DynamoDBClient({}), 'approvals');

      // Act
      await store.delete('id-1');

      // Assert
      expect(ddb.commandCalls(DeleteCommand)[0]?.args[0].input.Key).toEqual({ approvalId: 'id-1' });
    });
  });
});

describe('newApprovalId', () => {
  it('returns distinct URL-safe 128-bit ids', () => {
    // Arrange
    const count = 100;

    // Act
    const ids = new Set(Array.from({ length: count }, newApprovalId));

    // Assert
    expect(ids.size).toBe(count);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('never starts an id with "-", which `nomad-restart approve <id>` would read as a flag', () => {
    // Act: 1 id in 64 started with "-" before; 5,000 of them all but surely include such draws.
    const ids = Array.from({ length: 5_000 }, newApprovalId);

    // Assert
    expect(ids.filter((id) => id.startsWith('-'))).toEqual([]);
  });
});
