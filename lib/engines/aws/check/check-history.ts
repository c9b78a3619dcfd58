/**
 * What a deployment check execution's history says so far: what its read of a job found (the
 * report in the read step's output, or the step's error), the question its ask step parked (the
 * task token, read from the step's scheduled parameters, as a terminal following a run reads its
 * question's) and how it ended.
 */
import type { HistoryEvent } from '@aws-sdk/client-sfn';
import { REACHED_FIELD } from '../../../workflow/deployment-check';
import type { ReachReport } from '../../../workflow/deployment-check-reach';
import { TaskStates } from '../../../workflow/state-names';
import type { SfnCalls } from '../sfn-calls';

/** What the check's read step left: its report, or the error the step failed with. */
export type ReachOutcome =
  | { readonly report: ReachReport }
  | { readonly failed: { readonly error: string; readonly cause: string } };

/** The check execution as far as its history goes. */
export interface CheckExecutionState {
  /** What its read of a job found, once the read step has ended. */
  readonly reach: ReachOutcome | undefined;
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

/** The read step's exit: its report at `$.reached`, or the error its Catch put at `$.error`. */
function reachOf(event: HistoryEvent): ReachOutcome | undefined {
  try {
    const output = JSON.parse(event.stateExitedEventDetails?.output ?? '') as Record<string, unknown>;
    const report = output[REACHED_FIELD];
    if (report !== undefined) return { report: report as ReachReport };
    const error = output['error'] as { Error?: unknown; Cause?: unknown } | undefined;
    return error === undefined
      ? undefined
      : { failed: { error: String(error.Error), cause: String(error.Cause) } };
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
  let inReach = false;
  let scheduled: string | undefined;
  let taskToken: string | undefined;
  let reach: ReachOutcome | undefined;
  let end: CheckExecutionState['end'];
  for (const event of newestFirst.reverse()) {
    if (event.type === 'TaskStateEntered') {
      inAsk = event.stateEnteredEventDetails?.name === TaskStates.askDeploymentCheck;
      inReach = event.stateEnteredEventDetails?.name === TaskStates.reachDeploymentCheck;
    }
    // Its last attempt's error stands when the exit (after its Catch) carries none.
    if (event.type === 'TaskFailed' && inReach)
      reach = {
        failed: {
          error: event.taskFailedEventDetails?.error ?? '',
          cause: event.taskFailedEventDetails?.cause ?? '',
        },
      };
    if (event.type === 'TaskStateExited' && inReach) reach = reachOf(event) ?? reach;
    // A retried ask schedules again with a new token: the last one submitted is the open one.
    if (event.type === 'TaskScheduled' && inAsk) scheduled = tokenOf(event);
    if (event.type === 'TaskSubmitted' && inAsk) taskToken = scheduled;
    if (event.type === 'TaskStateExited') {
      inAsk = false;
      inReach = false;
    }
    end ??= endOf(event);
  }
  return { reach, taskToken: end === undefined ? taskToken : undefined, end };
}
