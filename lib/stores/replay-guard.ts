/**
 * Remembers signed requests already seen, so a captured answer cannot be sent again: the first
 * sighting of a key is recorded with a conditional write, any later one is refused.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { awsErrorCode } from './aws-errors';

/** Records request fingerprints (a signature, a request id) for as long as they could be replayed. */
export interface ReplayGuard {
  /**
   * Records `key` until `expiresAt` (Unix seconds) and returns `true`, or returns `false` when
   * it was recorded before: the request is a replay.
   */
  firstSighting(key: string, expiresAt: number): Promise<boolean>;
}

/** Keys live beside the questions in the approvals table, under a prefix no approval id has. */
export const REPLAY_KEY_PREFIX = 'seen:';

/** Replay guard for local runs and tests. */
export class MemoryReplayGuard implements ReplayGuard {
  private readonly seen = new Map<string, number>();

  public constructor(private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000)) {}

  public async firstSighting(key: string, expiresAt: number): Promise<boolean> {
    const until = this.seen.get(key);
    if (until !== undefined && until > this.nowSeconds()) return false;
    this.seen.set(key, expiresAt);
    return true;
  }
}

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
