/**
 * An EventBridge rule on the `Step Functions Execution Status Change` events of one state
 * machine's executions reaching the given statuses, delivered to a function: the stale-lock
 * release and the run-end notifier each have one.
 */
import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';

/** What {@link executionEndRule} routes where. */
export interface ExecutionEndRuleProps {
  readonly description: string;
  readonly stateMachine: sfn.IStateMachine;
  /** `SUCCEEDED`, `FAILED`, `TIMED_OUT`, `ABORTED`. */
  readonly statuses: readonly string[];
  readonly target: lambda.IFunction;
}

/**
 * The rule. A delivery EventBridge cannot make (a throttled invoke) is retried for two hours; a
 * function that fails is retried by Lambda's asynchronous invocation.
 */
export function executionEndRule(scope: Construct, id: string, props: ExecutionEndRuleProps): events.Rule {
  return new events.Rule(scope, id, {
    description: props.description,
    eventPattern: {
      source: ['aws.states'],
      detailType: ['Step Functions Execution Status Change'],
      detail: { status: [...props.statuses], stateMachineArn: [props.stateMachine.stateMachineArn] },
    },
    targets: [new targets.LambdaFunction(props.target, { retryAttempts: 8, maxEventAge: Duration.hours(2) })],
  });
}
