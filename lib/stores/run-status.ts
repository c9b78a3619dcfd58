/**
 * Whether the run holding a job's lock is still running: asked before a lock is taken over, so
 * that the lease alone never decides (a run waiting a long time on a replacement or a question
 * keeps its job). On AWS the holder is an execution and Step Functions says (`DescribeExecution`);
 * in a local run the holder is a run of this process, which keeps the list of its running ones.
 */
import type { SFNClient } from '@aws-sdk/client-sfn';

/** What a holder check can answer: Step Functions' execution statuses, or `NOT_FOUND`. */
export type RunStatus =
  | 'RUNNING'
  | 'SUCCEEDED'
  | 'FAILED'
  | 'TIMED_OUT'
  | 'ABORTED'
  | 'PENDING_REDRIVE'
  | 'NOT_FOUND';

export interface RunStatusSource {
  /** The status of the run whose identity is `runId`; throws when it cannot be known. */
  status(runId: string): Promise<RunStatus>;
}

/** Runs of this process (the local engine adds each run while it runs). */
export class LocalRuns implements RunStatusSource {
  private readonly running = new Set<string>();

  public started(runId: string): void {
    this.running.add(runId);
  }

  public ended(runId: string): void {
    this.running.delete(runId);
  }

  public async status(runId: string): Promise<RunStatus> {
    // Nothing here outlives the process, so a run it does not know has ended.
    return this.running.has(runId) ? 'RUNNING' : 'NOT_FOUND';
  }
}

/** Executions, through `DescribeExecution` (the role may describe this state machine's executions only). */
export class StepFunctionsRuns implements RunStatusSource {
  public constructor(private readonly client: SFNClient) {}

  public async status(runId: string): Promise<RunStatus> {
    const { DescribeExecutionCommand } = await import('@aws-sdk/client-sfn');
    try {
      const out = await this.client.send(new DescribeExecutionCommand({ executionArn: runId }));
      return (out.status ?? 'RUNNING') as RunStatus;
    } catch (error) {
      if ((error as { name?: string }).name === 'ExecutionDoesNotExist') return 'NOT_FOUND';
      throw error;
    }
  }
}
