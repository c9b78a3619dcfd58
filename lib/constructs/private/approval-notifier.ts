/**
 * A notifier of the user's own (`NomadRestartWorkflowProps.approvalNotifier`) told of each new
 * question through the approvals table's stream.
 */
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { APPROVALS_TABLE_SCHEMA } from '../../stores/dynamodb-approval-store';
import { questionRecordPatterns } from './approvals-stream-filter';

/**
 * Invokes `notifier` for each new question in `approvalsTable` (never the replay guard's inserts)
 * and lets it read the table.
 */
export function notifyQuestionsTo(notifier: lambda.IFunction, approvalsTable: dynamodb.Table): void {
  notifier.addEventSource(
    // exactOptionalPropertyTypes trips over CDK's own Table vs ITable optional fields.
    new DynamoEventSource(approvalsTable as unknown as dynamodb.ITable, {
      startingPosition: lambda.StartingPosition.LATEST,
      filters: questionRecordPatterns(APPROVALS_TABLE_SCHEMA.partitionKey, ['INSERT']).map((pattern) => ({
        pattern,
      })),
    }),
  );
  approvalsTable.grantReadData(notifier);
}
