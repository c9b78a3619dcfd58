/**
 * DescribeExecution, as the `aws-sdk:sfn:describeExecution` integration answers it, for the
 * executions of a local run's children: the child a `.sync` Task started and each execution it
 * continued in, RUNNING until it ends. The chain is learnt from the executions' ends: one that
 * continued as new ends with `{ executionArn: <successor> }` ("Continued in new execution",
 * `lib/workflow/definition.ts`), and its successor runs from then on.
 * (https://docs.aws.amazon.com/step-functions/latest/apireference/API_DescribeExecution.html)
 */
import type { ExecutionStatus, ExecutionSummary } from '../types';
import { TaskFailure } from './task-failures';

/** One execution the engine knows of. */
export interface KnownExecution {
  readonly stateMachineArn: string;
  readonly name: string;
  readonly startDate: number;
  /** The execution's input as a string; absent for a continued execution (the engine never sees it). */
  readonly input?: string;
  ended?: { readonly summary: ExecutionSummary; readonly stopDate: number };
}

/** DescribeExecution's status for a local ending: a `TimeoutSeconds` end is `TIMED_OUT` on AWS. */
export function describedStatus(summary: ExecutionSummary): ExecutionStatus | 'TIMED_OUT' {
  return summary.status === 'FAILED' && summary.error === 'States.Timeout' ? 'TIMED_OUT' : summary.status;
}

/** The successor's ARN when `summary` is an execution that continued as new. */
function successorOf(summary: ExecutionSummary): string | undefined {
  const output = summary.output as { executionArn?: unknown } | null | undefined;
  return summary.status === 'SUCCEEDED' && typeof output?.executionArn === 'string'
    ? output.executionArn
    : undefined;
}

/** The SDK's answer: `Input` and `Output` are strings (unlike `.sync:2`'s JSON). */
export function sdkDescription(arn: string, execution: KnownExecution): Record<string, unknown> {
  const { ended } = execution;
  const summary = ended?.summary;
  const output = summary?.status === 'SUCCEEDED' ? JSON.stringify(summary.output ?? null) : undefined;
  return {
    ExecutionArn: arn,
    StateMachineArn: execution.stateMachineArn,
    Name: execution.name,
    Status: summary === undefined ? 'RUNNING' : describedStatus(summary),
    StartDate: execution.startDate,
    ...(ended === undefined ? {} : { StopDate: ended.stopDate }),
    ...(execution.input === undefined ? {} : { Input: execution.input, InputDetails: { Included: true } }),
    ...(output === undefined ? {} : { Output: output, OutputDetails: { Included: true } }),
    ...(summary?.error === undefined ? {} : { Error: summary.error }),
    ...(summary?.cause === undefined ? {} : { Cause: summary.cause }),
    RedriveCount: 0,
  };
}

/** The executions the children continued in, by ARN. */
export class ContinuedExecutions {
  private readonly executions = new Map<string, KnownExecution>();

  /**
   * Notes that an execution of a child's chain ended (the child itself, or one it continued in);
   * a hand-over starts its successor, RUNNING until its own end is noted.
   */
  ended(summary: ExecutionSummary, stateMachineArn: string): void {
    const stopDate = Date.now();
    const known = this.executions.get(summary.executionArn);
    if (known !== undefined) known.ended = { summary, stopDate };
    const successor = successorOf(summary);
    if (successor === undefined || this.executions.has(successor)) return;
    const name = successor.slice(successor.lastIndexOf(':') + 1);
    this.executions.set(successor, { stateMachineArn, name, startDate: stopDate });
  }

  /** The execution with `arn`, when a child continued in it. */
  get(arn: string): KnownExecution | undefined {
    return this.executions.get(arn);
  }
}

/** The SDK integration's error for an ARN no execution has (`ServiceName.ErrorName`). */
export function executionDoesNotExist(arn: string): TaskFailure {
  return new TaskFailure('Sfn.ExecutionDoesNotExistException', `Execution Does Not Exist: '${arn}'`);
}
