/**
 * The Step Functions calls the AWS engine makes, each through {@link awsCall}: one place that
 * knows the SDK commands, so the rest of the engine reads like the workflow it follows.
 *
 * Two retry policies: starting (nothing runs yet, so the command may give up and say so) is
 * retried a few times; every call made while the execution may still run is retried for as
 * long as the failure is transient ({@link patient}), since giving up would leave a run going
 * on unobserved and its questions unanswered.
 */
import {
  DescribeExecutionCommand,
  GetExecutionHistoryCommand,
  type HistoryEvent,
  ListExecutionsCommand,
  SendTaskSuccessCommand,
  type SFNClient,
  StartExecutionCommand,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
import type { TaskAnswerClient } from '../../approvals/decide';
import { goQuote } from '../../go/quote';
import { awsErrorCode } from '../../stores/aws-errors';
import { type AwsRetryOptions, awsCall, patient } from './aws-call';
import { AwsCallError, ExecutionHistoryError } from './errors';
import { executionArnOf, parseStateMachineArn } from './state-machine-arn';

/** One page of execution history. */
export interface HistoryPage {
  readonly events: HistoryEvent[];
  readonly nextToken: string | undefined;
}

/** Which page of history to read. */
export interface HistoryPageRequest {
  readonly executionArn: string;
  /** The token of the previous page of the same read; absent for the newest events. */
  readonly nextToken?: string | undefined;
  /** Events per page (Step Functions allows 1 to 1000). */
  readonly pageSize: number;
}

/** The Step Functions API, as the engine uses it. */
export interface SfnCalls {
  /**
   * Starts an execution named `name` with `input` (JSON-encoded) and returns its ARN. A retry
   * after a lost answer is safe: the same name and input start nothing new.
   */
  startExecution(stateMachineArn: string, input: unknown, name: string): Promise<string>;
  /**
   * One page of history, newest first (see `history-follower.ts` for why), with execution data
   * (task outputs carry the progress events).
   */
  historyPage(request: HistoryPageRequest): Promise<HistoryPage>;
  /** Whether the execution exists (one event of its history is read). */
  executionExists(executionArn: string): Promise<boolean>;
  /**
   * The input the execution started with (its oldest history event carries it), decoded from
   * JSON; `undefined` when it cannot be read as JSON.
   * @param bounded give up after a few retries (when it is not known yet whether it exists)
   */
  startInput(executionArn: string, bounded: boolean): Promise<unknown>;
  /** Answers a task-token wait; `output` is JSON-encoded. */
  sendTaskSuccess(taskToken: string, output: unknown, executionArn: string): Promise<void>;
  /**
   * The client the one decision function (`lib/approvals/decide.ts`) answers a question of
   * `executionArn` through: each `SendTaskSuccess` made as {@link sendTaskSuccess} makes it.
   */
  taskAnswerClient(executionArn: string): TaskAnswerClient;
  /** Stops an execution at once (it ends `ABORTED`). */
  stopExecution(executionArn: string, error: string, cause: string): Promise<void>;
  /**
   * The item executions a Distributed Map run started so far (one page, oldest order not
   * promised): how a fleet's follower finds each job's execution.
   */
  mapRunExecutions(mapRunArn: string, nextToken?: string): Promise<{ arns: string[]; nextToken?: string }>;
}

/**
 * The client the one decision function (`lib/approvals/decide.ts`) sends `SendTaskSuccess`
 * through: retried as `retry` says, its failures worded as {@link awsCall} words them.
 * @param what what the answer is, for the error message (`answering question "<id>"`)
 */
export function awsTaskAnswerClient(
  client: SFNClient,
  what: string,
  retry: AwsRetryOptions,
): TaskAnswerClient {
  return {
    send: (command) =>
      command instanceof DescribeExecutionCommand
        ? awsCall({ action: 'states:DescribeExecution', what }, () => client.send(command), retry)
        : awsCall({ action: 'states:SendTaskSuccess', what }, () => client.send(command), retry),
  };
}

/** Step Functions' answer to a start whose name was used before (by this invocation's lost first try). */
const EXECUTION_ALREADY_EXISTS = 'ExecutionAlreadyExists';

/**
 * {@link SfnCalls} over an SDK client.
 * @param retry the retries of a start and of a bounded read; the other calls use {@link patient}
 *   with the same backoff
 * @param onOutage told of each failed attempt a patient call retries (the outage notice)
 */
export function sfnCalls(
  client: SFNClient,
  retry: AwsRetryOptions = {},
  onOutage?: AwsRetryOptions['onRetry'],
): SfnCalls {
  const following = patient(onOutage === undefined ? retry : { ...retry, onRetry: onOutage });
  // `bounded`: give up after a few retries, as a start does (it is not known yet whether the
  // execution exists); otherwise transient failures are retried for as long as they last.
  const readHistory = async (
    request: HistoryPageRequest & { readonly bounded?: boolean; readonly oldestFirst?: boolean },
  ) => {
    const { executionArn, nextToken, pageSize } = request;
    const out = await awsCall(
      {
        action: 'states:GetExecutionHistory',
        what: `reading the history of execution ${goQuote(executionArn)}`,
      },
      () =>
        client.send(
          new GetExecutionHistoryCommand({
            executionArn,
            reverseOrder: request.oldestFirst !== true,
            includeExecutionData: true,
            maxResults: pageSize,
            ...(nextToken === undefined ? {} : { nextToken }),
          }),
        ),
      request.bounded === true ? retry : following,
    );
    return { events: out.events ?? [], nextToken: out.nextToken };
  };
  const historyPage = (request: HistoryPageRequest): Promise<HistoryPage> => readHistory(request);
  const taskAnswerClient = (executionArn: string): TaskAnswerClient =>
    awsTaskAnswerClient(client, `answering the question of execution ${goQuote(executionArn)}`, following);
  return {
    async startExecution(stateMachineArn, input, name) {
      const out = await awsCall(
        { action: 'states:StartExecution', what: `starting an execution of ${goQuote(stateMachineArn)}` },
        async () => {
          try {
            const started = await client.send(
              new StartExecutionCommand({ stateMachineArn, name, input: JSON.stringify(input) }),
            );
            return started.executionArn;
          } catch (error) {
            // The name is this invocation's own: an execution under it is the one an earlier try
            // started (and that has ended since, or Step Functions would have returned it).
            if (awsErrorCode(error) !== EXECUTION_ALREADY_EXISTS) throw error;
            return executionArnOf(parseStateMachineArn(stateMachineArn), name);
          }
        },
        retry,
      );
      if (out === undefined) {
        throw new ExecutionHistoryError(
          `StartExecution of ${goQuote(stateMachineArn)} returned no execution ARN`,
        );
      }
      return out;
    },

    historyPage,

    async executionExists(executionArn) {
      try {
        await historyPage({ executionArn, pageSize: 1 });
        return true;
      } catch (error) {
        if (error instanceof AwsCallError && error.code === 'ExecutionDoesNotExist') return false;
        throw error;
      }
    },

    async startInput(executionArn, bounded) {
      const { events } = await readHistory({ executionArn, pageSize: 1, bounded, oldestFirst: true });
      const text = events[0]?.executionStartedEventDetails?.input;
      try {
        return text === undefined ? undefined : JSON.parse(text);
      } catch {
        return undefined;
      }
    },

    async sendTaskSuccess(taskToken, output, executionArn) {
      await taskAnswerClient(executionArn).send(
        new SendTaskSuccessCommand({ taskToken, output: JSON.stringify(output) }),
      );
    },

    taskAnswerClient,

    async mapRunExecutions(mapRunArn, nextToken) {
      const out = await awsCall(
        { action: 'states:ListExecutions', what: `listing the executions of map run ${goQuote(mapRunArn)}` },
        () =>
          client.send(
            new ListExecutionsCommand({
              mapRunArn,
              maxResults: 1000,
              ...(nextToken === undefined ? {} : { nextToken }),
            }),
          ),
        following,
      );
      const arns = (out.executions ?? []).flatMap((e) =>
        e.executionArn === undefined ? [] : [e.executionArn],
      );
      return out.nextToken === undefined ? { arns } : { arns, nextToken: out.nextToken };
    },

    async stopExecution(executionArn, error, cause) {
      await awsCall(
        { action: 'states:StopExecution', what: `stopping execution ${goQuote(executionArn)}` },
        () => client.send(new StopExecutionCommand({ executionArn, error, cause })),
        following,
      );
    },
  };
}
