/**
 * `nomad-restart attach <execution-arn>`: re-attaches to a run started anywhere (this command,
 * the console, a schedule, another laptop) without starting anything. The execution's start
 * input says which run it belongs to; the run is followed from its first execution, so every
 * line so far is printed, then through its continue-as-new successors to its end, its questions
 * asked here and an interrupt honoured as for a start; the exit code is Nomad's.
 *
 * Only `states:GetExecutionHistory` is needed to follow (the oldest history event carries the
 * input; no `DescribeExecution`).
 */
import type { ProgressEvent } from '../../restart/events';
import { type AwsSessionOptions, openAwsSession } from './aws-session';
import { RemoteEngineError } from './errors';
import { type FollowResult, type FollowRunRequest, followRun } from './follow-run';
import { type RunIdentity, runIdentityOf } from './run-identity';
import { parseExecutionArn } from './state-machine-arn';

/** What `nomad-restart attach` asks for. */
export interface AttachToRunRequest
  extends Omit<AwsSessionOptions, 'region' | 'printError'>,
    Omit<FollowRunRequest, 'session' | 'runId' | 'emit' | 'printError'> {
  /** Any execution of the run. */
  readonly executionArn: string;
  /**
   * The renderer of the run's progress events, made once the run is known and before its first
   * line (it was started with or without `-verbose`).
   */
  readonly renderer: (run: RunIdentity) => (event: ProgressEvent) => void;
  /** Prints one error line on stderr. */
  readonly printError: (message: string) => void;
}

/** Attaches to the run of `executionArn` and follows it to its end. */
export async function attachToRun(request: AttachToRunRequest): Promise<FollowResult> {
  const { printError } = request;
  let region: string;
  try {
    region = parseExecutionArn(request.executionArn).region;
  } catch (error) {
    if (!(error instanceof RemoteEngineError)) throw error;
    printError(error.message);
    return { exitCode: 1, status: 'NOT_STARTED', executionArns: [] };
  }
  const session = openAwsSession({ ...request, region });
  let run: RunIdentity;
  try {
    // Bounded: a wrong ARN or region is an answer, not an outage to wait out.
    run = runIdentityOf(request.executionArn, await session.calls.startInput(request.executionArn, true));
  } catch (error) {
    if (!(error instanceof RemoteEngineError)) throw error;
    printError(error.message);
    return { exitCode: 1, status: 'NOT_STARTED', executionArns: [] };
  }
  return followRun({ ...request, session, runId: run.runId, emit: request.renderer(run) });
}
