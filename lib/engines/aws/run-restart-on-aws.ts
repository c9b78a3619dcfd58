/**
 * `nomad-restart -engine=aws -state-machine-arn=<arn>`: starts the restart state machine with
 * the restart options (and nothing else: no token, no secret) under a name made once for this
 * invocation (so a retried start cannot start a second run), then follows the run
 * (`follow-run.ts`) and exits as Nomad does.
 */
import type { ProgressEvent } from '../../restart/events';
import { toRestartInput, validateRestartInput } from '../../restart/input';
import type { RestartOptions } from '../../restart/options';
import type { AwsSessionOptions } from './aws-session';
import { newExecutionName } from './execution-name';
import { type FollowResult, followRun } from './follow-run';
import type { HistoryPageSizes } from './history-follower';
import type { AskQuestion } from './question-bridge';
import { startOnAws } from './start-execution';

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
  /**
   * Who runs this command (`user@host`, never a secret): the input's `startedBy`, shown with the
   * run's questions in chat, and who answers them here.
   */
  readonly operator: string;
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
export function runRestartOnAws(request: RunRestartOnAwsRequest): Promise<RunRestartOnAwsResult> {
  const printError = request.printError ?? ((message: string) => void process.stderr.write(`${message}\n`));
  return startOnAws(
    {
      ...request,
      printError,
      name: request.executionName ?? newExecutionName(request.options.job),
      input: () => {
        const input = toRestartInput(request.options, request.operator);
        validateRestartInput(input, { interactive: true });
        return input;
      },
    },
    (session, runId) => followRun({ ...request, session, runId, printError, answeredBy: request.operator }),
  );
}
