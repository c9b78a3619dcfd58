/**
 * The Step Functions calls the AWS engine makes, each through {@link awsCall}: one place that
 * knows the SDK commands, so the rest of the engine reads like the workflow it follows.
 */
import {
  GetExecutionHistoryCommand,
  type HistoryEvent,
  SendTaskSuccessCommand,
  type SFNClient,
  StartExecutionCommand,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
import { goQuote } from '../../restart/go-quote';
import { type AwsRetryOptions, awsCall } from './aws-call';
import { ExecutionHistoryError } from './errors';

/** One page of execution history. */
export interface HistoryPage {
  readonly events: HistoryEvent[];
  readonly nextToken: string | undefined;
}

/** The Step Functions API, as the engine uses it. */
export interface SfnCalls {
  /** Starts an execution with `input` (JSON-encoded) and returns its ARN. */
  startExecution(stateMachineArn: string, input: unknown): Promise<string>;
  /**
   * One page of history, newest first (see `history-follower.ts` for why), with execution data
   * (task outputs carry the progress events).
   */
  historyPage(executionArn: string, nextToken: string | undefined, pageSize: number): Promise<HistoryPage>;
  /** Answers a task-token wait; `output` is JSON-encoded. */
  sendTaskSuccess(taskToken: string, output: unknown, executionArn: string): Promise<void>;
  /** Stops an execution at once (it ends `ABORTED`). */
  stopExecution(executionArn: string, error: string, cause: string): Promise<void>;
}

/** {@link SfnCalls} over an SDK client. */
export function sfnCalls(client: SFNClient, retry: AwsRetryOptions = {}): SfnCalls {
  return {
    async startExecution(stateMachineArn, input) {
      const out = await awsCall(
        'StartExecution',
        `starting an execution of ${goQuote(stateMachineArn)}`,
        () => client.send(new StartExecutionCommand({ stateMachineArn, input: JSON.stringify(input) })),
        retry,
      );
      if (out.executionArn === undefined) {
        throw new ExecutionHistoryError(
          `StartExecution of ${goQuote(stateMachineArn)} returned no execution ARN`,
        );
      }
      return out.executionArn;
    },

    async historyPage(executionArn, nextToken, pageSize) {
      const out = await awsCall(
        'GetExecutionHistory',
        `reading the history of execution ${goQuote(executionArn)}`,
        () =>
          client.send(
            new GetExecutionHistoryCommand({
              executionArn,
              reverseOrder: true,
              includeExecutionData: true,
              maxResults: pageSize,
              ...(nextToken === undefined ? {} : { nextToken }),
            }),
          ),
        retry,
      );
      return { events: out.events ?? [], nextToken: out.nextToken };
    },

    async sendTaskSuccess(taskToken, output, executionArn) {
      await awsCall(
        'SendTaskSuccess',
        `answering the question of execution ${goQuote(executionArn)}`,
        () => client.send(new SendTaskSuccessCommand({ taskToken, output: JSON.stringify(output) })),
        retry,
      );
    },

    async stopExecution(executionArn, error, cause) {
      await awsCall(
        'StopExecution',
        `stopping execution ${goQuote(executionArn)}`,
        () => client.send(new StopExecutionCommand({ executionArn, error, cause })),
        retry,
      );
    },
  };
}
