/**
 * An execution of the restart state machine that has ended, as its EventBridge status change
 * (or `DescribeExecution`) tells it, and the run it belongs to.
 */

/** The statuses an execution ends in. */
export const END_STATUSES = ['SUCCEEDED', 'FAILED', 'TIMED_OUT', 'ABORTED'] as const;

/**
 * An execution that has ended. The JSON texts and the Fail details are absent when Step
 * Functions left them out of the event (too large), until `DescribeExecution` fills them in.
 */
export interface EndedExecution {
  readonly executionArn: string;
  readonly status: (typeof END_STATUSES)[number];
  /** Unix ms. */
  readonly startDate: number;
  /** Unix ms. */
  readonly stopDate: number;
  readonly input?: string;
  readonly output?: string;
  readonly error?: string;
  readonly cause?: string;
}

/** The run id of an execution: its own ARN, or for a continued execution the `runId` in its input. */
export function runIdOf(executionArn: string, input: string | null | undefined): string {
  try {
    const parsed: unknown = JSON.parse(input ?? 'null');
    const runId = (parsed as { continuation?: { run?: { runId?: unknown } } } | null)?.continuation?.run
      ?.runId;
    if (typeof runId === 'string' && runId !== '') return runId;
  } catch {
    // Not JSON: a first execution started with bad input; its run id is its own ARN.
  }
  return executionArn;
}

/** Whether the event left out something the run's end cannot be told without. */
export function lacksDetails(e: EndedExecution): boolean {
  if (e.input === undefined) return true;
  if (e.status === 'SUCCEEDED') return e.output === undefined;
  return e.status === 'FAILED' && (e.error === undefined || e.cause === undefined);
}
