/**
 * The replay guard on the approvals table (see replay-guard.ts): `seen:<key>` items written with a
 * conditional put, expiring through the table's TTL.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { awsErrorCode } from './aws-errors';
import { REPLAY_KEY_PREFIX, type ReplayGuard } from './replay-guard';

/** Replay guard on the approvals table: `seen:<key>` items that expire through the table's TTL. */
export class DynamoDbReplayGuard implements ReplayGuard {
  private readonly documents: DynamoDBDocumentClient;

  public constructor(
    client: DynamoDBClient,
    private readonly tableName: string,
  ) {
    this.documents = DynamoDBDocumentClient.from(client);
  }

  public async firstSighting(key: string, expiresAt: number): Promise<boolean> {
    try {
      await this.documents.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { approvalId: `${REPLAY_KEY_PREFIX}${key}`, expiresAt },
          ConditionExpression: 'attribute_not_exists(approvalId)',
        }),
      );
      return true;
    } catch (error) {
      if (awsErrorCode(error) === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  }
}
