/**
 * The log group of a state machine of the workflow: under `/aws/vendedlogs/states/`, named after
 * the state machine and the stack's creation.
 */
import { Aws, Fn, type RemovalPolicy } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/**
 * The first group of the UUID in the stack's id (`arn:...:stack/<name>/<uuid>`): the same for
 * every update of a stack, new when the stack is created again after a delete.
 */
function stackCreationId(): string {
  return Fn.select(0, Fn.split('-', Fn.select(2, Fn.split('/', Aws.STACK_ID))));
}

/** Creates the log group of the state machine `stateMachineName`. */
export function stateMachineLogGroup(
  scope: Construct,
  id: string,
  stateMachineName: string,
  settings: { readonly logRetention: logs.RetentionDays; readonly removalPolicy: RemovalPolicy },
): logs.LogGroup {
  return new logs.LogGroup(scope, id, {
    // Under /aws/vendedlogs/: other names grow the account's one CloudWatch Logs resource
    // policy, whose small size limit would fail a later deployment. Suffixed with the stack's
    // creation (its id's UUID): a retained group outlives `cdk destroy`, and with a fixed name
    // the next deployment of the stack would fail on "already exists".
    logGroupName: Fn.join('-', [`/aws/vendedlogs/states/${stateMachineName}`, stackCreationId()]),
    retention: settings.logRetention,
    removalPolicy: settings.removalPolicy,
  });
}
