/**
 * History events shaped as the restart state machine writes them, and a fake
 * `GetExecutionHistory` that reveals one chunk of an execution's timeline per poll (a read
 * without `nextToken`), newest first and paged by `maxResults`, as Step Functions answers
 * `reverseOrder: true`.
 */
import type { GetExecutionHistoryCommandInput, HistoryEvent } from '@aws-sdk/client-sfn';
import type { ProgressEvent } from '../../../../lib/restart/events';
import type { ApprovalAnswer, PendingQuestion, TaskFailure } from '../../../../lib/workflow/payloads';

/** A history event without its id; ids are given when the timeline is built. */
export type EventShape = Omit<HistoryEvent, 'id' | 'timestamp'>;

const stateOutput = (output: unknown) => ({ output: JSON.stringify(output) });

/** Builders for the history events the engine reads. */
export const ev = {
  /** A Task state that replaces the state, carrying its step's events. */
  step: (name: string, events: ProgressEvent[], extra: Record<string, unknown> = {}): EventShape => ({
    type: 'TaskStateExited',
    stateExitedEventDetails: { name, ...stateOutput({ events, ...extra }) },
  }),
  choice: (name: string, events: ProgressEvent[]): EventShape => ({
    type: 'ChoiceStateExited',
    stateExitedEventDetails: { name, ...stateOutput({ events }) },
  }),
  askEntered: (): EventShape => ({
    type: 'TaskStateEntered',
    stateEnteredEventDetails: { name: 'Ask question', input: '{}' },
  }),
  askScheduled: (taskToken: string, question: PendingQuestion): EventShape => ({
    type: 'TaskScheduled',
    taskScheduledEventDetails: {
      resourceType: 'lambda',
      resource: 'invoke.waitForTaskToken',
      region: 'eu-west-1',
      parameters: JSON.stringify({
        FunctionName: 'arn:aws:lambda:eu-west-1:123456789012:function:ask',
        Payload: {
          taskToken,
          executionId: 'ignored',
          runId: 'ignored',
          jobId: 'example',
          namespace: 'default',
          question,
        },
      }),
    },
  }),
  askSubmitted: (): EventShape => ({
    type: 'TaskSubmitted',
    taskSubmittedEventDetails: { resourceType: 'lambda', resource: 'invoke.waitForTaskToken' },
  }),
  /**
   * The ask step's exit: its output repeats the previous step's events, with what it was sent at
   * `$.answer` (or, when nobody answered in time, its `States.Timeout` failure).
   */
  askExited: (
    events: ProgressEvent[],
    answer: ApprovalAnswer | TaskFailure = { answer: 'yes' },
  ): EventShape => ({
    type: 'TaskStateExited',
    stateExitedEventDetails: { name: 'Ask question', ...stateOutput({ events, answer }) },
  }),
  continued: (executionArn: string, events: ProgressEvent[]): EventShape => ({
    type: 'TaskStateExited',
    stateExitedEventDetails: {
      name: 'Continue as new execution',
      ...stateOutput({ events, continuedAs: { executionArn } }),
    },
  }),
  succeeded: (output: unknown): EventShape => ({
    type: 'ExecutionSucceeded',
    executionSucceededEventDetails: { output: JSON.stringify(output) },
  }),
  failed: (error: string, cause: string): EventShape => ({
    type: 'ExecutionFailed',
    executionFailedEventDetails: { error, cause },
  }),
  aborted: (): EventShape => ({ type: 'ExecutionAborted', executionAbortedEventDetails: {} }),
  timedOut: (): EventShape => ({ type: 'ExecutionTimedOut', executionTimedOutEventDetails: {} }),
};

/** One execution whose history grows by one chunk per poll. */
export class FakeExecution {
  private revealed = 0;
  private readonly chunks: HistoryEvent[][];
  /** `GetExecutionHistory` inputs received, in order. */
  public readonly reads: GetExecutionHistoryCommandInput[] = [];

  public constructor(chunks: EventShape[][]) {
    let id = 0;
    this.chunks = chunks.map((chunk) => chunk.map((e) => ({ ...e, id: ++id, timestamp: new Date(0) })));
  }

  /** Answers one `GetExecutionHistory` call. */
  public read(input: GetExecutionHistoryCommandInput): { events: HistoryEvent[]; nextToken?: string } {
    this.reads.push(input);
    if (input.nextToken === undefined) this.revealed = Math.min(this.revealed + 1, this.chunks.length);
    const newestFirst = this.chunks.slice(0, this.revealed).flat().reverse();
    const start = input.nextToken === undefined ? 0 : Number(input.nextToken);
    const size = input.maxResults ?? 100;
    const events = newestFirst.slice(start, start + size);
    const next = start + size;
    return next < newestFirst.length ? { events, nextToken: String(next) } : { events };
  }
}
