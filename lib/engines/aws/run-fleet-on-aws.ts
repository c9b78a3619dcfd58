/**
 * `nomad-restart fleet -engine=aws -state-machine-arn=<fleet state machine>`: starts the fleet
 * state machine with the fleet input (options only: no token, no secret) under a name made once for
 * this invocation, then follows it (`follow-fleet.ts`) and exits with the fleet's exit code.
 */
import { type FleetInput, toFleetInput, validateFleetInput } from '../../fleet/input';
import type { FleetOptions } from '../../fleet/options';
import type { AwsSessionOptions } from './aws-session';
import { newExecutionName } from './execution-name';
import { type FollowFleetRequest, followFleet } from './follow-fleet';
import type { FollowResult } from './follow-run';
import { startOnAws } from './start-execution';

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
export function runFleetOnAws(request: RunFleetOnAwsRequest): Promise<FollowResult> {
  return startOnAws(
    {
      ...request,
      name: request.executionName ?? newExecutionName('fleet'),
      input: (): FleetInput => {
        const input = toFleetInput(request.fleet, request.operator);
        validateFleetInput(input, { interactive: true });
        return input;
      },
    },
    (session, runId) => followFleet({ ...request, session, runId, answeredBy: request.operator }),
  );
}
