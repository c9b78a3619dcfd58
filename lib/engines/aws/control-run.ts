/**
 * A run-control request (lib/control/requests.ts) for a restart running on AWS, named by one of
 * its executions (`nomad-restart pause|resume|stop <execution ARN>`). The execution's input names
 * its run (a continued execution's input carries the run's first ARN); the lock table's owner
 * index tells which job that run holds; the request is recorded on that job's lock item, which
 * the run's guard reads before each batch (docs/run-control.md).
 *
 * A run parked on its pause question waits on a task token, not on the lock item: `resume` and
 * `stop` answer that question (yes, no) through the one decision every answer takes
 * (`lib/approvals/decide.ts`), attributed to the operator, exactly as `approve` does.
 */
import { randomUUID } from 'node:crypto';
import { type DecideOutcome, decideQuestion, type TaskAnswerClient } from '../../approvals/decide';
import { ApprovalError } from '../../approvals/errors';
import { RunControlError, RunNotPausedError, RunNotRunningError } from '../../control/errors';
import type { ControlRequest } from '../../control/requests';
import { goQuote } from '../../go/quote';
import type { ApprovalStore, PendingApproval } from '../../stores/approval-store';
import type { JobLock, LockKey } from '../../stores/job-lock';
import { continuationNamePrefix } from '../../workflow/continuation-name';
import { awsCall, retryTransient, toAwsCallError } from './aws-call';
import { AwsCallError, RemoteEngineError, RemoteInputError } from './errors';
import { runIdentityOf } from './run-identity';
import type { SfnCalls } from './sfn-calls';
import { parseExecutionArn } from './state-machine-arn';

/** The question kind the guard parks a paused run on (`PendingQuestion.kind`). */
const PAUSE_KIND = 'pause';

/** What a request for an AWS run is made with. */
export interface AwsRunControlDeps {
  readonly calls: SfnCalls;
  /** The lock table (`NOMAD_RESTART_LOCK_TABLE`). */
  readonly lock: JobLock;
  /** The approvals table (`NOMAD_RESTART_APPROVALS_TABLE`): needed by `resume` and `stop`. */
  readonly approvals: ApprovalStore | undefined;
  /** Answers the run's parked pause question (`SendTaskSuccess`). */
  readonly answerClient: (executionArn: string) => TaskAnswerClient;
}

/** What became of the request. */
export type AwsControlOutcome =
  /** Recorded on the job's lock item: the run acts on it at its next safe point. */
  | { readonly kind: 'recorded'; readonly key: LockKey; readonly runId: string }
  /** A pause not reached yet was taken back (`resume` before the run paused). */
  | { readonly kind: 'pause-withdrawn'; readonly key: LockKey; readonly runId: string }
  /** The run was parked on its pause question: `resume` answered it yes, `stop` no. */
  | {
      readonly kind: 'answered';
      readonly key: LockKey;
      readonly runId: string;
      readonly answer: DecideOutcome;
    };

/**
 * Makes `request` for the run of execution `executionArn`.
 * @throws RemoteInputError for a malformed ARN or a `resume`/`stop` without the approvals table;
 *   RunNotRunningError when the execution does not exist or its run holds no job's lock;
 *   RunNotPausedError for a `resume` with nothing paused; AwsCallError when AWS refuses a call
 */
export async function controlAwsRun(
  deps: AwsRunControlDeps,
  executionArn: string,
  request: ControlRequest,
): Promise<AwsControlOutcome> {
  parseExecutionArn(executionArn);
  if (request.verb !== 'pause' && deps.approvals === undefined)
    throw new RemoteInputError(
      `nomad-restart ${request.verb} of an AWS run answers its pause question when it is parked on it: ` +
        'set NOMAD_RESTART_APPROVALS_TABLE to the approvals table (the stack output ApprovalsTableName)',
    );
  const run = await runOf(deps.calls, executionArn);
  const key = await heldKey(deps.lock, run.runId, executionArn);
  const owner = run.runId;
  const held = { key, runId: owner };
  // The run's questions are pending under the state machine of its first execution.
  const stateMachineArn = owner.replace(/:execution:([^:]+):[^:]+$/, ':stateMachine:$1');
  const { approvals } = deps;
  const parked =
    approvals === undefined ? undefined : await parkedPause(approvals, stateMachineArn, key, run);
  if (parked !== undefined && request.verb === 'pause')
    throw new RunControlError(
      `The restart of job ${goQuote(key.jobId)} in namespace ${goQuote(key.namespace)} is already paused: ` +
        `its question ${goQuote(parked.approvalId)} waits for an answer (resume or stop it)`,
    );
  if (parked !== undefined && approvals !== undefined) {
    const answer = await answerPause(approvals, deps.answerClient(parked.executionId), parked, request);
    return { kind: 'answered', ...held, answer };
  }
  if (request.verb === 'resume') {
    const recorded = await lockCall(`reading the lock of job ${goQuote(key.jobId)}`, 'dynamodb:GetItem', () =>
      deps.lock.controlRequest(key, owner),
    );
    if (recorded?.verb !== 'pause') throw notPaused(key);
    await lockCall(
      `withdrawing the pause on the lock of job ${goQuote(key.jobId)}`,
      'dynamodb:UpdateItem',
      () => deps.lock.clearControlRequest(key, owner, recorded),
    );
    return { kind: 'pause-withdrawn', ...held };
  }
  const recorded = await lockCall(
    `recording a ${request.verb} request on the lock of job ${goQuote(key.jobId)}`,
    'dynamodb:UpdateItem',
    () => deps.lock.requestControl(key, owner, request),
  );
  // Released between the owner-index read and this write: the run has just ended.
  if (!recorded) throw notRunning(executionArn, 'it has just ended');
  return { kind: 'recorded', ...held };
}

/**
 * Answers the parked pause question `parked` as `approve` would (`resume`: yes, `stop`: no), each
 * retry of it the same answer. Refusals of the answer itself (decided first, timed out) come back
 * as ApprovalError, for the caller to say as they are.
 */
async function answerPause(
  approvals: ApprovalStore,
  sfn: TaskAnswerClient,
  parked: PendingApproval,
  request: ControlRequest,
): Promise<DecideOutcome> {
  const answer = {
    approvalId: parked.approvalId,
    reply: request.verb === 'resume' ? 'yes' : 'no',
    answeredBy: request.requestedBy,
    via: 'terminal' as const,
    decisionId: randomUUID(),
  };
  try {
    return await retryTransient(() => decideQuestion({ approvals, sfn }, answer));
  } catch (error) {
    if (error instanceof ApprovalError || error instanceof RemoteEngineError) throw error;
    throw toAwsCallError(
      {
        action: 'dynamodb:GetItem and dynamodb:UpdateItem',
        what: `answering pause question ${goQuote(parked.approvalId)}`,
      },
      error,
    );
  }
}

/** The run of `executionArn`, from the input it started with. */
async function runOf(calls: SfnCalls, executionArn: string) {
  let input: unknown;
  try {
    input = await calls.startInput(executionArn, true);
  } catch (error) {
    if (error instanceof AwsCallError && error.code === 'ExecutionDoesNotExist')
      throw new RunNotRunningError(`Execution ${goQuote(executionArn)} does not exist`, { cause: error });
    throw error;
  }
  return runIdentityOf(executionArn, input);
}

/** The job the run holds: a one-job run holds at most one. */
async function heldKey(lock: JobLock, runId: string, executionArn: string): Promise<LockKey> {
  const keys = await lockCall(`finding the job run ${goQuote(runId)} holds`, 'dynamodb:Query', () =>
    lock.keysHeldBy(runId),
  );
  const [key] = keys;
  if (key === undefined)
    throw notRunning(executionArn, 'its run holds no job lock (it has ended, or has not locked its job yet)');
  return key;
}

/** The pause question the run waits on, if it is parked on one (found among the state machine's pending ones). */
async function parkedPause(
  approvals: ApprovalStore,
  stateMachineArn: string,
  key: LockKey,
  run: { readonly runId: string; readonly job: string },
): Promise<PendingApproval | undefined> {
  const pending = await awsCall(
    { action: 'dynamodb:Query', what: `listing the pending questions of ${goQuote(stateMachineArn)}` },
    () => approvals.listPending({ stateMachineArn }),
  );
  // The run's question, asked by its first execution or a continued one (named after the run).
  const successorPrefix = `${continuationNamePrefix(run.runId, run.job)}-`;
  const ofRun = (executionId: string) =>
    executionId === run.runId ||
    executionId.slice(executionId.lastIndexOf(':') + 1).startsWith(successorPrefix);
  return pending.find(
    (q) =>
      q.kind === PAUSE_KIND && q.jobId === key.jobId && q.namespace === key.namespace && ofRun(q.executionId),
  );
}

function lockCall<T>(what: string, action: string, call: () => Promise<T>): Promise<T> {
  return awsCall({ action, what }, call);
}

function notRunning(executionArn: string, why: string): RunNotRunningError {
  return new RunNotRunningError(`The restart of execution ${goQuote(executionArn)} is not running: ${why}`);
}

function notPaused(key: LockKey): RunNotPausedError {
  return new RunNotPausedError(
    `The restart of job ${goQuote(key.jobId)} in namespace ${goQuote(key.namespace)} is not paused: there is nothing to resume`,
  );
}
