/**
 * How the command starts a run on AWS, one-job or fleet: its input built and validated here first
 * (bad input starts nothing), then `StartExecution` under a name made once for this invocation, so a
 * retried start finds the same execution instead of starting a second run.
 */
import { RestartValidationError } from '../../restart/errors';
import { isAwsThrottlingError, isTransientAwsError } from '../../stores/aws-errors';
import { type AwsSession, type AwsSessionOptions, openAwsSession } from './aws-session';
import { RemoteEngineError } from './errors';
import type { FollowResult } from './follow-run';
import { executionArnOf, parseStateMachineArn } from './state-machine-arn';

/** What {@link startOnAws} needs besides the session's own options. */
export interface StartOnAwsRequest extends Omit<AwsSessionOptions, 'region' | 'printError'> {
  readonly stateMachineArn: string;
  /** AWS region of the calls. @default - the region in `stateMachineArn` */
  readonly region?: string;
  readonly signal?: AbortSignal;
  /** The execution's name, made once. */
  readonly name: string;
  /** Builds the input and validates it as the state machine will (throws `RestartValidationError`). */
  readonly input: () => unknown;
  readonly printError: (message: string) => void;
}

const notStarted = (exitCode: 0 | 1): FollowResult => ({
  exitCode,
  status: 'NOT_STARTED',
  executionArns: [],
});

/**
 * Starts the run and hands it to `follow`; a refused input or start is printed and ends the
 * command with exit 1, before (or instead of) anything running.
 */
export async function startOnAws(
  request: StartOnAwsRequest,
  follow: (session: AwsSession, runId: string) => Promise<FollowResult>,
): Promise<FollowResult> {
  const { printError, name } = request;
  let input: unknown;
  let region: string;
  try {
    region = request.region ?? parseStateMachineArn(request.stateMachineArn).region;
    // The state machine validates again; checking here means bad input starts nothing.
    input = request.input();
  } catch (error) {
    if (!(error instanceof RemoteEngineError || error instanceof RestartValidationError)) throw error;
    printError(error.message);
    return notStarted(1);
  }
  if (request.signal?.aborted) return notStarted(0);

  const session = openAwsSession({ ...request, region, printError });
  let runId: string;
  try {
    runId = await session.calls.startExecution(request.stateMachineArn, input, name);
  } catch (error) {
    if (!(error instanceof RemoteEngineError)) throw error;
    printError(error.message);
    if (isTransientAwsError(error.cause) && !isAwsThrottlingError(error.cause)) {
      // The last try was lost on the way or failed inside AWS (a throttled one was refused
      // outright): it, or an earlier one, may have started the run all the same.
      const arn = executionArnOf(parseStateMachineArn(request.stateMachineArn), name);
      printError(`An execution named "${name}" may have started; look with: nomad-restart attach ${arn}`);
    }
    return notStarted(1);
  }
  return follow(session, runId);
}
