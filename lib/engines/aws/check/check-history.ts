/**
 * What a deployment check execution's history says so far: the question its ask step parked (the
 * task token, read from the step's scheduled parameters, as a terminal following a run reads its
 * question's) and how it ended.
 */
import type { HistoryEvent } from '@aws-sdk/client-sfn';
import { TaskStates } from '../../../workflow/state-names';
import type { SfnCalls } from '../sfn-calls';

/** The check execution as far as its history goes. */
export interface CheckExecutionState {
  /** The task token of the question it waits on, once the ask function has parked it. */
  readonly taskToken: string | undefined;
  /** How it ended, once it has. */
  readonly end: { readonly status: string; readonly error: string; readonly cause: string } | undefined;
}

const PAGE_SIZE = 100;

function tokenOf(event: HistoryEvent): string | undefined {
  try {
    const parameters = JSON.parse(event.taskScheduledEventDetails?.parameters ?? '') as {
      Payload?: { taskToken?: unknown };
    };
    const token = parameters.Payload?.taskToken;
    return typeof token === 'string' && token !== '' ? token : undefined;
  } catch {
    return undefined;
  }
}

function endOf(event: HistoryEvent): CheckExecutionState['end'] {
  const details =
    event.executionFailedEventDetails ??
    event.executionAbortedEventDetails ??
    event.executionTimedOutEventDetails;
  switch (event.type) {
    case 'ExecutionSucceeded':
      return { status: 'SUCCEEDED', error: '', cause: '' };
    case 'ExecutionFailed':
    case 'ExecutionAborted':
    case 'ExecutionTimedOut':
      return {
        status: event.type.replace('Execution', '').toUpperCase(),
        error: details?.error ?? '',
        cause: details?.cause ?? '',
      };
    default:
      return undefined;
  }
}

/** Reads the whole history of `executionArn` (a check's is a few events) and what it says. */
export async function readCheckExecution(sfn: SfnCalls, executionArn: string): Promise<CheckExecutionState> {
  const newestFirst: HistoryEvent[] = [];
  let nextToken: string | undefined;
  do {
    const page = await sfn.historyPage({ executionArn, pageSize: PAGE_SIZE, nextToken });
    newestFirst.push(...page.events);
    nextToken = page.nextToken;
  } while (nextToken !== undefined);
  let inAsk = false;
  let scheduled: string | undefined;
  let taskToken: string | undefined;
  let end: CheckExecutionState['end'];
  for (const event of newestFirst.reverse()) {
    if (event.type === 'TaskStateEntered')
      inAsk = event.stateEnteredEventDetails?.name === TaskStates.askDeploymentCheck;
    // A retried ask schedules again with a new token: the last one submitted is the open one.
    if (event.type === 'TaskScheduled' && inAsk) scheduled = tokenOf(event);
    if (event.type === 'TaskSubmitted' && inAsk) taskToken = scheduled;
    if (event.type === 'TaskStateExited') inAsk = false;
    end ??= endOf(event);
  }
  return { taskToken: end === undefined ? taskToken : undefined, end };
}
