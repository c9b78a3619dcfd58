import {
  DeleteItemCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
} from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { type Approval, DynamoDbApprovalStore, newApprovalId } from '../../lib/stores';

const ddb = mockClient(DynamoDBClient);
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
const item = {
  approvalId: { S: 'id-1' },
  executionId: { S: 'arn:exec:1' },
  taskToken: { S: 'token-abc' },
  kind: { S: 'proceed' },
  prompt: { S: 'Proceed with the next batch? [Y/n]' },
  summary: { S: 'Batch 1 of 3: 2 restarted' },
  jobId: { S: 'web' },
  namespace: { S: 'default' },
  createdAt: { N: '100' },
  expiresAt: { N: '200' },
};

describe('DynamoDbApprovalStore', () => {
  afterEach(() => ddb.reset());

  describe('put', () => {
    it('writes every field, numbers as N attributes', async () => {
      // Arrange
      ddb.on(PutItemCommand).resolves({});
      const store = new DynamoDbApprovalStore(new DynamoDBClient({}), 'approvals');

      // Act
      await store.put(approval);

      // Assert
      expect(ddb.commandCalls(PutItemCommand)[0]?.args[0].input).toEqual({
        TableName: 'approvals',
        Item: item,
      });
    });
  });

  describe('get', () => {
    it('reads an approval back', async () => {
      // Arrange
      ddb.on(GetItemCommand).resolves({ Item: item });
      const store = new DynamoDbApprovalStore(new DynamoDBClient({}), 'approvals');

      // Act
      const read = await store.get('id-1');

      // Assert
      expect(read).toEqual(approval);
    });

    it.each([
      { name: 'fails when the id is unknown', reply: {}, expectedErr: 'No pending question with id "id-1"' },
      {
        name: 'fails when an attribute is missing',
        reply: { Item: { ...item, prompt: undefined } },
        expectedErr: 'Approval item lacks string attribute "prompt"',
      },
    ])('$name', async ({ reply, expectedErr }) => {
      // Arrange
      ddb.on(GetItemCommand).resolves(reply as never);
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
      ddb
        .on(QueryCommand)
        .resolves({ Items: [{ ...item, approvalId: { S: 'id-2' }, createdAt: { N: '150' } }, item] });
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
      ddb.on(DeleteItemCommand).resolves({});
      const store = new DynamoDbApprovalStore(new DynamoDBClient({}), 'approvals');

      // Act
      await store.delete('id-1');

      // Assert
      expect(ddb.commandCalls(DeleteItemCommand)[0]?.args[0].input.Key).toEqual({
        approvalId: { S: 'id-1' },
      });
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
});
