/**
 * `nomad-restart -engine=aws -state-machine-arn=<arn>`: starts the restart state machine with
 * the restart options (and nothing else: no token, no secret) under a name made once for this
 * invocation (so a retried start cannot start a second run), then follows the run
 * (`follow-run.ts`) and exits as Nomad does.
 */
import { RestartValidationError } from '../../restart/errors';
import type { ProgressEvent } from '../../restart/events';
import { toRestartInput, validateRestartInput } from '../../restart/input';
import type { RestartOptions } from '../../restart/options';
import { isAwsThrottlingError, isTransientAwsError } from '../../stores/aws-errors';
import { type AwsSessionOptions, openAwsSession } from './aws-session';
import { RemoteEngineError } from './errors';
import { newExecutionName } from './execution-name';
import { type FollowResult, followRun } from './follow-run';
import type { HistoryPageSizes } from './history-follower';
import type { AskQuestion } from './question-bridge';
import { executionArnOf, parseStateMachineArn } from './state-machine-arn';

/** What `nomad-restart -engine=aws` asks for. */
export interface RunRestartOnAwsRequest extends Omit<AwsSessionOptions, 'region' | 'printError'> {
  /** Validated restart options (`lib/restart`); checked again before anything is started. */
  readonly options: RestartOptions;
  readonly stateMachineArn: string;
  /** AWS region of the calls. @default - the region in `stateMachineArn` */
  readonly region?: string;
  /** Renders a progress event (the CLI's one formatter); called once per event, in order. */
  readonly emit: (event: ProgressEvent) => void;
  /** Asks the run's questions (see {@link AskQuestion}). */
  readonly ask: AskQuestion;
  /** Aborted when an interrupt is confirmed: the run is canceled (see `cancel.ts`). */
  readonly signal?: AbortSignal;
  /** Pause between history reads, in ms. @default 1000 */
  readonly pollIntervalMs?: number;
  /** History page sizes. @default - 10 first, 100 when widened */
  readonly historyPageSizes?: HistoryPageSizes;
  /** The execution's name. @default - a fresh one (`newExecutionName`) */
  readonly executionName?: string;
  /**
   * Prints one error line (a Fail state's cause, an AWS error), on stderr in the formatter's
   * style. @default - writes the message and a newline to `process.stderr`
   */
  readonly printError?: (message: string) => void;
}

/** How the command ends. */
export type RunRestartOnAwsResult = FollowResult;

/** Runs a restart as an AWS execution and follows it to its end. */
export async function runRestartOnAws(request: RunRestartOnAwsRequest): Promise<RunRestartOnAwsResult> {
  const printError = request.printError ?? ((message: string) => void process.stderr.write(`${message}\n`));
  let input: ReturnType<typeof toRestartInput>;
  let region: string;
  try {
    region = request.region ?? parseStateMachineArn(request.stateMachineArn).region;
    input = toRestartInput(request.options);
    // The state machine validates again; checking here means bad input starts nothing.
    validateRestartInput(input, { interactive: true });
  } catch (error) {
    if (!(error instanceof RemoteEngineError || error instanceof RestartValidationError)) throw error;
    printError(error.message);
    return { exitCode: 1, status: 'NOT_STARTED', executionArns: [] };
  }
  if (request.signal?.aborted) return { exitCode: 0, status: 'NOT_STARTED', executionArns: [] };

  const session = openAwsSession({ ...request, region, printError });
  // One name for every try of this start: a retry after a lost answer finds the same execution.
  const name = request.executionName ?? newExecutionName(request.options.job);
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
    return { exitCode: 1, status: 'NOT_STARTED', executionArns: [] };
  }
  return followRun({ ...request, session, runId, printError });
}
