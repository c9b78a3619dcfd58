/**
 * `nomad-restart attach <fleet execution ARN>`: follows a fleet run started anywhere (this
 * command, the console, a schedule) again, without starting anything: its start input (the oldest
 * history event) says it is a fleet and how its lines look (`-max-jobs`, `-verbose`), then it is
 * followed as a start follows it (`follow-fleet.ts`), every line so far included.
 */
import type { FleetOptions } from '../../fleet/options';
import { type AwsSessionOptions, openAwsSession } from './aws-session';
import { RemoteEngineError } from './errors';
import { fleetOptionsOf } from './fleet-start-input';
import { type FollowFleetRequest, followFleet } from './follow-fleet';
import type { FollowResult } from './follow-run';
import { parseExecutionArn } from './state-machine-arn';

/** How a fleet run's lines are printed here, made once its options are known. */
export type FleetRenderer = Pick<FollowFleetRequest, 'emit' | 'askFor' | 'printError'>;

/** What attaching to a fleet run asks for. */
export interface AttachToFleetRequest
  extends Omit<AwsSessionOptions, 'region' | 'printError'>,
    Omit<FollowFleetRequest, 'session' | 'runId' | 'emit' | 'askFor' | 'printError'> {
  /** The fleet execution. */
  readonly executionArn: string;
  /** The renderer of the run, made from its options (its formatter needs `-max-jobs`). */
  readonly renderer: (fleet: FleetOptions) => FleetRenderer;
  /** Prints one error line before the run is known. */
  readonly printError: (message: string) => void;
}

/**
 * Attaches to the fleet run of `executionArn` and follows it to its end; `undefined`, having made
 * one history read, when the execution is not a fleet's (a one-job run: `attachToRun` follows it).
 * An execution that cannot be read (none of that name, access denied) ends it at once, said once.
 */
export async function attachToFleet(request: AttachToFleetRequest): Promise<FollowResult | undefined> {
  let region: string;
  try {
    region = parseExecutionArn(request.executionArn).region;
  } catch (error) {
    if (!(error instanceof RemoteEngineError)) throw error;
    return undefined;
  }
  const session = openAwsSession({ ...request, region });
  let input: unknown;
  try {
    // Bounded: a wrong ARN or region is an answer, not an outage to wait out.
    input = await session.calls.startInput(request.executionArn, true);
  } catch (error) {
    if (!(error instanceof RemoteEngineError)) throw error;
    request.printError(error.message);
    return { exitCode: 1, status: 'NOT_STARTED', executionArns: [] };
  }
  const fleet = fleetOptionsOf(input);
  if (fleet === undefined) return undefined;
  return followFleet({ ...request, ...request.renderer(fleet), session, runId: request.executionArn });
}
