/**
 * `Step Functions Execution Status Change` events as EventBridge delivers them: the detail's
 * input and output are JSON strings, `null` when Step Functions left them out (too large, with
 * `included: false`), and `error` / `cause` are set for a failed, timed-out or aborted execution.
 */
import type { ExecutionSummary } from '../../../lib/engines/local/types';

/** The state machine the test executions belong to. */
export const STATE_MACHINE_ARN = 'arn:aws:states:eu-west-1:123456789012:stateMachine:NomadRestart-Restart';

/** An execution ARN of that state machine. */
export const executionArn = (name: string) =>
  `arn:aws:states:eu-west-1:123456789012:execution:NomadRestart-Restart:${name}`;

/** What a test says about the execution that ended. */
export interface StatusChangeFacts {
  readonly executionArn: string;
  readonly status: 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED';
  /** Unix ms. */
  readonly startDate: number;
  /** Unix ms. */
  readonly stopDate: number;
  /** The input as given (serialised here), or `null`: left out. */
  readonly input: unknown;
  /** The output (serialised here), `null` when left out; only for a succeeded execution. */
  readonly output?: unknown;
  readonly error?: string;
  readonly cause?: string;
}

/** The event EventBridge delivers for `facts`. */
export function statusChangeEvent(facts: StatusChangeFacts): Record<string, unknown> {
  const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));
  const succeeded = facts.status === 'SUCCEEDED';
  return {
    version: '0',
    id: '315c1398-40ff-a850-213b-158f73e60175',
    'detail-type': 'Step Functions Execution Status Change',
    source: 'aws.states',
    account: '123456789012',
    time: new Date(facts.stopDate).toISOString(),
    region: 'eu-west-1',
    resources: [facts.executionArn],
    detail: {
      executionArn: facts.executionArn,
      stateMachineArn: STATE_MACHINE_ARN,
      name: facts.executionArn.split(':').pop(),
      status: facts.status,
      startDate: facts.startDate,
      stopDate: facts.stopDate,
      input: json(facts.input),
      output: succeeded ? json(facts.output) : null,
      inputDetails: { included: facts.input !== null },
      outputDetails: succeeded ? { included: facts.output !== null } : null,
      error: facts.error ?? null,
      cause: facts.cause ?? null,
    },
  };
}

/**
 * The event for an execution of a local run that has just ended, with the input it was given;
 * `executionArn` stands in for the local ARN where a test plays a deployed state machine.
 */
export function endedExecutionEvent(
  execution: Pick<ExecutionSummary, 'executionArn' | 'status' | 'output'>,
  facts: { readonly startDate: number; readonly input: unknown; readonly executionArn?: string },
): Record<string, unknown> {
  return statusChangeEvent({
    executionArn: facts.executionArn ?? execution.executionArn,
    status: execution.status,
    startDate: facts.startDate,
    stopDate: Date.now(),
    input: facts.input,
    output: execution.output,
  });
}
