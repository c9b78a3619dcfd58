/**
 * `nomad-restart fleet -engine=aws -state-machine-arn=<fleet state machine>`: starts the fleet
 * state machine with the fleet input (options only: no token, no secret) under a name made once for
 * this invocation, then follows it (`follow-fleet.ts`) and exits with the fleet's exit code.
 */
import { type FleetInput, toFleetInput, validateFleetInput } from '../../fleet/input';
import type { FleetOptions } from '../../fleet/options';
import { RestartValidationError } from '../../restart/errors';
import { isAwsThrottlingError, isTransientAwsError } from '../../stores/aws-errors';
import { type AwsSessionOptions, openAwsSession } from './aws-session';
import { RemoteEngineError } from './errors';
import { newExecutionName } from './execution-name';
import { type FollowFleetRequest, followFleet } from './follow-fleet';
import type { FollowResult } from './follow-run';
import { executionArnOf, parseStateMachineArn } from './state-machine-arn';

/** What `nomad-restart fleet -engine=aws` asks for. */
export interface RunFleetOnAwsRequest
  extends Omit<AwsSessionOptions, 'region' | 'printError'>,
    Omit<FollowFleetRequest, 'session' | 'runId' | 'answeredBy'> {
  /** Validated fleet options (`lib/fleet`); checked again before anything is started. */
  readonly fleet: FleetOptions;
  /** The fleet state machine (the stack's `FleetStateMachineArn` output). */
  readonly stateMachineArn: string;
  /** AWS region of the calls. @default - the region in `stateMachineArn` */
  readonly region?: string;
  /** Who runs this command (`user@host`): the input's `startedBy`, and who answers here. */
  readonly operator: string;
  /** The execution's name. @default - a fresh one (`newExecutionName('fleet')`) */
  readonly executionName?: string;
}

/** Runs a fleet as an AWS execution and follows it to its end. */
export async function runFleetOnAws(request: RunFleetOnAwsRequest): Promise<FollowResult> {
  const { printError } = request;
  let input: FleetInput;
  let region: string;
  try {
    region = request.region ?? parseStateMachineArn(request.stateMachineArn).region;
    input = toFleetInput(request.fleet, request.operator);
    // The state machine validates again; checking here means bad input starts nothing.
    validateFleetInput(input, { interactive: true });
  } catch (error) {
    if (!(error instanceof RemoteEngineError || error instanceof RestartValidationError)) throw error;
    printError(error.message);
    return { exitCode: 1, status: 'NOT_STARTED', executionArns: [] };
  }
  if (request.signal?.aborted) return { exitCode: 0, status: 'NOT_STARTED', executionArns: [] };

  const session = openAwsSession({ ...request, region, printError: (message) => printError(message) });
  // One name for every try of this start: a retry after a lost answer finds the same execution.
  const name = request.executionName ?? newExecutionName('fleet');
  let runId: string;
  try {
    runId = await session.calls.startExecution(request.stateMachineArn, input, name);
  } catch (error) {
    if (!(error instanceof RemoteEngineError)) throw error;
    printError(error.message);
    if (isTransientAwsError(error.cause) && !isAwsThrottlingError(error.cause)) {
      const arn = executionArnOf(parseStateMachineArn(request.stateMachineArn), name);
      printError(`An execution named "${name}" may have started; look with: nomad-restart attach ${arn}`);
    }
    return { exitCode: 1, status: 'NOT_STARTED', executionArns: [] };
  }
  return followFleet({ ...request, session, runId, answeredBy: request.operator });
}
