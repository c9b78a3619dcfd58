/**
 * An EventBridge rule on the `Step Functions Execution Status Change` events of the given state
 * machines' executions reaching the given statuses, delivered to a function: the stale-lock
 * release and the run-end notifier each have one.
 */
import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import { DeadLetterQueue } from './dead-letter-queue';

/** What {@link executionEndRule} routes where. */
export interface ExecutionEndRuleProps {
  readonly description: string;
  /** The state machines whose executions' ends the rule routes. */
  readonly stateMachines: readonly sfn.IStateMachine[];
  /** `SUCCEEDED`, `FAILED`, `TIMED_OUT`, `ABORTED`. */
  readonly statuses: readonly string[];
  readonly target: lambda.IFunction;
  /** What the rule's dead-letter queue holds, for its alarm: e.g. "Run ends never posted". */
  readonly undelivered: string;
}

/** The rule, and the dead-letter queue of the events it could not get handled. */
export interface ExecutionEndRule {
  readonly rule: events.Rule;
  readonly deadLetterQueue: DeadLetterQueue;
}

/**
 * The rule. A delivery EventBridge cannot make (a throttled invoke) is retried for two hours, then
 * goes to the dead-letter queue; an event delivered to a function that then fails is retried twice
 * by Lambda's asynchronous invocation, then goes to the same queue (its on-failure destination).
 * Either way it ends where the queue's alarm shows it, never dropped.
 */
export function executionEndRule(
  scope: Construct,
  id: string,
  props: ExecutionEndRuleProps,
): ExecutionEndRule {
  const deadLetterQueue = new DeadLetterQueue(scope, `${id}DeadLetters`, { holds: props.undelivered });
  props.target.configureAsyncInvoke({
    retryAttempts: 2,
    onFailure: new SqsDestination(deadLetterQueue.queue),
  });
  const rule = new events.Rule(scope, id, {
    description: props.description,
    eventPattern: {
      source: ['aws.states'],
      detailType: ['Step Functions Execution Status Change'],
      detail: {
        status: [...props.statuses],
        stateMachineArn: props.stateMachines.map((m) => m.stateMachineArn),
      },
    },
    targets: [
      new targets.LambdaFunction(props.target, {
        retryAttempts: 8,
        maxEventAge: Duration.hours(2),
        deadLetterQueue: deadLetterQueue.queue,
      }),
    ],
  });
  return { rule, deadLetterQueue };
}
