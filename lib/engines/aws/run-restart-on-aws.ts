/**
 * `nomad-restart -engine=aws -state-machine-arn=<arn>`: starts the restart state machine with
 * the restart options (and nothing else: no token, no secret), follows the execution and its
 * continue-as-new successors through their history, renders the progress events the steps
 * wrote, answers questions from this terminal, honours an interrupt, and exits as Nomad does.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SFNClient } from '@aws-sdk/client-sfn';
import { RestartValidationError } from '../../restart/errors';
import type { ProgressEvent } from '../../restart/events';
import { toRestartInput, validateRestartInput } from '../../restart/input';
import type { RestartOptions } from '../../restart/options';
import type { Answer, Question } from '../../restart/questions';
import type { ApprovalStore } from '../../stores/approval-store';
import { DynamoDbApprovalStore } from '../../stores/dynamodb-approval-store';
import { DynamoDbJobLock } from '../../stores/dynamodb-job-lock';
import type { JobLock, LockKey } from '../../stores/job-lock';
import { APPROVALS_TABLE_ENV, LOCK_TABLE_ENV } from '../../stores/table-env';
import type { AwsRetryOptions } from './aws-call';
import { type CancelRequest, requestCancel } from './cancel';
import { RemoteEngineError } from './errors';
import { ExecutionTracker } from './execution-tracker';
import { exitStatusOf } from './exit-status';
import { HistoryFollower } from './history-follower';
import { answerPendingQuestion } from './question-bridge';
import { type SfnCalls, sfnCalls } from './sfn-calls';
import { parseStateMachineArn } from './state-machine-arn';

/** Default pause between two history reads while something happens. */
export const DEFAULT_POLL_INTERVAL_MS = 1000;
/** While nothing happens the pause grows, up to this many times the interval. */
const MAX_BACKOFF_FACTOR = 4;

/** What `nomad-restart -engine=aws` asks for. */
export interface RunRestartOnAwsRequest {
  /** Validated restart options (`lib/restart`); checked again before anything is started. */
  readonly options: RestartOptions;
  readonly stateMachineArn: string;
  /** AWS region of the calls. @default - the region in `stateMachineArn` */
  readonly region?: string;
  /** Injected clients (tests). @default - SDK clients for `region`, with the default credentials chain */
  readonly clients?: { readonly sfn?: SFNClient; readonly dynamodb?: DynamoDBClient };
  /** Renders a progress event (the CLI's one formatter); called once per event, in order. */
  readonly emit: (event: ProgressEvent) => void;
  /** Asks a question at the terminal; never returns `invalid` (it asks again itself). */
  readonly ask: (question: Question) => Promise<Answer>;
  /** Aborted when an interrupt is confirmed: the run is canceled (see `cancel.ts`). */
  readonly signal?: AbortSignal;
  /** Pause between history reads, in ms. @default 1000 */
  readonly pollIntervalMs?: number;
  /**
   * Prints one error line (a Fail state's cause, an AWS error), on stderr in the formatter's
   * style. @default - writes the message and a newline to `process.stderr`
   */
  readonly printError?: (message: string) => void;
  /**
   * The approvals table: questions are read from it and removed once answered.
   * @default - `$NOMAD_RESTART_APPROVALS_TABLE`; unset: questions are read from execution history
   */
  readonly approvalsTable?: string;
  /**
   * The job-lock table: an interrupt sets its cancel flag (a cancel at the next safe point).
   * @default - `$NOMAD_RESTART_LOCK_TABLE`; unset: an interrupt stops the execution at once
   */
  readonly lockTable?: string;
  /** Where the table variables are read. @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** Retries of throttled or failed AWS calls. @default 5 retries from 250 ms */
  readonly retry?: AwsRetryOptions;
  /** History events per page. @default 100 */
  readonly historyPageSize?: number;
}

/** How the command ends. */
export interface RunRestartOnAwsResult {
  /** Nomad's exit code. */
  readonly exitCode: 0 | 1;
  /**
   * The last execution's status (`SUCCEEDED`, `FAILED`, `ABORTED`, `TIMED_OUT`), `NOT_STARTED`
   * when nothing was started (bad input, or `StartExecution` failed), or `UNKNOWN` when the
   * execution could not be followed to its end.
   */
  readonly status: string;
  /** Every execution of the chain, first to last. */
  readonly executionArns: string[];
}

/** Runs a restart as an AWS execution and follows it to its end. */
export async function runRestartOnAws(request: RunRestartOnAwsRequest): Promise<RunRestartOnAwsResult> {
  const printError = request.printError ?? ((message: string) => void process.stderr.write(`${message}\n`));
  const executionArns: string[] = [];
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
    return { exitCode: 1, status: 'NOT_STARTED', executionArns };
  }
  if (request.signal?.aborted) return { exitCode: 0, status: 'NOT_STARTED', executionArns };

  const env = request.env ?? process.env;
  // The SDK warns on stderr that later versions need Node 22; this command's stderr is Nomad's
  // lines (a contract), so the notice stays out unless the user asked for it.
  process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] ??= 'true';
  const calls = sfnCalls(request.clients?.sfn ?? new SFNClient({ region }), request.retry);
  const approvalsTable = request.approvalsTable ?? nonEmpty(env[APPROVALS_TABLE_ENV]);
  const lockTable = request.lockTable ?? nonEmpty(env[LOCK_TABLE_ENV]);
  let dynamodb = request.clients?.dynamodb;
  const ddb = () => {
    dynamodb ??= new DynamoDBClient({ region });
    return dynamodb;
  };
  try {
    executionArns.push(await calls.startExecution(request.stateMachineArn, input));
  } catch (error) {
    if (!(error instanceof RemoteEngineError)) throw error;
    printError(error.message);
    return { exitCode: 1, status: 'NOT_STARTED', executionArns };
  }
  try {
    return await follow({
      request,
      calls,
      executionArns,
      approvals: approvalsTable === undefined ? undefined : new DynamoDbApprovalStore(ddb(), approvalsTable),
      lock: lockTable === undefined ? undefined : new DynamoDbJobLock(ddb(), lockTable),
      printError,
    });
  } catch (error) {
    if (!(error instanceof RemoteEngineError)) throw error;
    printError(error.message);
    printError(`Execution "${executionArns.at(-1) ?? ''}" may still be running in AWS Step Functions`);
    return { exitCode: 1, status: 'UNKNOWN', executionArns };
  }
}

interface FollowContext {
  readonly request: RunRestartOnAwsRequest;
  readonly calls: SfnCalls;
  /** Grows as continue-as-new successors appear; the last one is followed. */
  readonly executionArns: string[];
  readonly approvals: ApprovalStore | undefined;
  readonly lock: JobLock | undefined;
  readonly printError: (message: string) => void;
}

/** The follow loop: read new history, render, answer, cancel, and move to successors. */
async function follow(ctx: FollowContext): Promise<RunRestartOnAwsResult> {
  const { request, calls, executionArns } = ctx;
  const { signal } = request;
  const baseInterval = Math.max(0, request.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS);
  const pageSize = request.historyPageSize;
  const followerOf = (arn: string) => new HistoryFollower(calls, arn, pageSize);
  let executionArn = executionArns.at(-1) ?? '';
  let follower = followerOf(executionArn);
  let tracker = new ExecutionTracker();
  const answered = new Set<string>();
  let cancel: CancelRequest | undefined;
  let interval = baseInterval;

  for (;;) {
    const fresh = await follower.poll();
    for (const historyEvent of fresh) {
      for (const event of tracker.apply(historyEvent)) {
        // After a confirmed interrupt Nomad prints nothing more of the batch in flight.
        if (!signal?.aborted) request.emit(event);
      }
    }
    if (signal?.aborted && cancel === undefined) {
      cancel = await requestCancel(
        { calls, lock: ctx.lock, ...retryOf(request) },
        // The run's identity is its first execution, whichever one runs now.
        { runId: executionArns[0] ?? executionArn, executionArn },
        tracker.lockedJob,
      );
    }

    const end = tracker.end;
    if (end !== undefined) {
      const successor = tracker.successorArn;
      if (successor === undefined) {
        const status = exitStatusOf(end, { executionArn, stoppedByUs: cancel === 'stopped' });
        if (status.message !== undefined) ctx.printError(status.message);
        return { exitCode: status.exitCode, status: end.status, executionArns };
      }
      const inherited: LockKey | undefined = tracker.lockedJob;
      executionArns.push(successor);
      executionArn = successor;
      follower = followerOf(successor);
      tracker = new ExecutionTracker(inherited);
      interval = baseInterval;
      continue;
    }

    const pending = tracker.pendingAsk;
    const askKey = pending === undefined ? '' : `${executionArn}#${pending.scheduledEventId}`;
    if (pending !== undefined && !answered.has(askKey)) {
      answered.add(askKey);
      await answerPendingQuestion(
        {
          calls,
          approvals: ctx.approvals,
          // Canceling: the question's safe answer ends the run without asking anyone.
          ask: signal?.aborted ? async () => ({ kind: 'no' }) : request.ask,
          ...retryOf(request),
        },
        executionArn,
        pending,
      );
      interval = baseInterval;
      continue;
    }

    await pause(interval, cancel === undefined ? signal : undefined);
    interval = fresh.length > 0 ? baseInterval : Math.min(interval * 1.5, baseInterval * MAX_BACKOFF_FACTOR);
  }
}

const retryOf = (request: RunRestartOnAwsRequest) =>
  request.retry === undefined ? {} : { retry: request.retry };

const nonEmpty = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);

/** Waits `ms`, or less when `wake` aborts (an interrupt is acted on at once). */
function pause(ms: number, wake: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (wake?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      wake?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    wake?.addEventListener('abort', done, { once: true });
  });
}
