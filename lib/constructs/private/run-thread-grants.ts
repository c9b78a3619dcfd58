/**
 * A run's live chat thread (lib/approvals/run-thread.ts), where Slack or a webhook is configured:
 * the steps that record a run's progress ("Lock job", "Decide", "Await health") are switched on
 * (`RUN_THREAD=on`) and may write the run's thread item in the approvals table, whose stream the
 * question notifier already follows. Nothing else in the state machine changes.
 */

import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { APPROVAL_ENV } from '../../approvals/settings';
import { ENV } from '../../stores/from-env';
import type { WorkflowFunctionId } from './task-functions';

/** The steps that record a run's progress (lambdas/private/run-progress-middleware.ts). */
export const RECORDS_PROGRESS: readonly WorkflowFunctionId[] = ['lock-job', 'decide', 'await-health'];

/** Switches the progress records on and lets those steps write them (UpdateItem, the table only). */
export function enableRunThreads(
  functions: Readonly<Record<WorkflowFunctionId, lambda.Function>>,
  approvalsTable: dynamodb.Table,
): void {
  for (const id of RECORDS_PROGRESS) {
    const fn = functions[id];
    fn.addEnvironment(APPROVAL_ENV.runThread, 'on');
    fn.addEnvironment(ENV.approvalsTable, approvalsTable.tableName);
    fn.addToRolePolicy(
      new iam.PolicyStatement({ actions: ['dynamodb:UpdateItem'], resources: [approvalsTable.tableArn] }),
    );
  }
}
