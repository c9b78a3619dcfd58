/**
 * A run-control request (lib/control/requests.ts) for a restart running on AWS, named by one of
 * its executions (`nomad-restart pause|resume|stop <execution ARN>`). The execution's input names
 * its run (a continued execution's input carries the run's first ARN); the lock table's owner
 * index tells which job that run holds. The run is then steered as from chat or the webhook
 * (lib/approvals/run-control.ts): recorded on that job's lock item, or its parked pause question
 * answered, attributed to the operator. What stays here is AWS's: each call retried as the
 * terminal retries, and a refusal naming the IAM action the operator lacks.
 */
import { randomUUID } from 'node:crypto';
import { type DecideOutcome, decideQuestion, type TaskAnswerClient } from '../../approvals/decide';
import { ApprovalError } from '../../approvals/errors';
import { controlFleet, type FleetControlOutcome } from '../../approvals/fleet-control';
import {
  type AnsweringRequest,
  controlRun,
  type ParkedQuestions,
  type RunControlDeps,
  type RunControlOutcome,
} from '../../approvals/run-control';
import { RunNotRunningError } from '../../control/errors';
import { goQuote } from '../../go/quote';
import type { ApprovalStore, PendingApproval } from '../../stores/approval-store';
import type { JobLock, LockKey } from '../../stores/job-lock';
import { awsCall, retryTransient, toAwsCallError } from './aws-call';
import { AwsCallError, RemoteEngineError, RemoteInputError } from './errors';
import { fleetOptionsOf } from './fleet-start-input';
import { runIdentityOf } from './run-identity';
import type { SfnCalls } from './sfn-calls';
import { parseExecutionArn } from './state-machine-arn';

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

/**
 * What became of the request: for the run `runId` the execution belongs to, or, for a fleet's
 * execution, for the fleet run `fleetRunId` (its execution's name) and each of its parked jobs.
 */
export type AwsControlOutcome =
  | (RunControlOutcome & { readonly runId: string })
  | { readonly kind: 'fleet'; readonly fleetRunId: string; readonly fleet: FleetControlOutcome };

/**
 * Makes `request` for the run of execution `executionArn`.
 * @throws RemoteInputError for a malformed ARN or a `resume`/`stop` without the approvals table;
 *   RunNotRunningError when the execution does not exist or its run holds no job's lock;
 *   RunNotPausedError for a `resume` with nothing paused; RunAlreadyPausedError for a `pause` of a
 *   parked run; AwsCallError when AWS refuses a call
 */
export async function controlAwsRun(
  deps: AwsRunControlDeps,
  executionArn: string,
  request: AnsweringRequest,
): Promise<AwsControlOutcome> {
  parseExecutionArn(executionArn);
  const { approvals } = deps;
  if (request.verb !== 'pause' && approvals === undefined)
    throw new RemoteInputError(
      `nomad-restart ${request.verb} of an AWS run answers its pause question when it is parked on it: ` +
        'set NOMAD_RESTART_APPROVALS_TABLE to the approvals table (the stack output ApprovalsTableName)',
    );
  const input = await startInputOf(deps.calls, executionArn);
  const steering: RunControlDeps = {
    lock: awsLock(deps.lock),
    ...(approvals === undefined
      ? {}
      : {
          questions: {
            approvals: awsApprovals(approvals),
            answer: (question, answer) =>
              answerPause(question, () =>
                decideQuestion({ approvals, sfn: deps.answerClient(question.executionId) }, answer),
              ),
          },
        }),
  };
  if (fleetOptionsOf(input) !== undefined) {
    const fleetRunId = parseExecutionArn(executionArn).name;
    const fleet = await controlFleet(
      {
        lock: { ...steering.lock, keysHeldBy: (owner) => keysHeldBy(deps.lock, owner) },
        ...(steering.questions === undefined || approvals === undefined
          ? {}
          : { questions: { ...steering.questions, pending: () => allPending(approvals) } }),
      },
      { fleetRunId, request, answeredBy: request.requestedBy, decisionId: randomUUID() },
    );
    return { kind: 'fleet', fleetRunId, fleet };
  }
  const { runId } = runIdentityOf(executionArn, input);
  const key = await heldKey(deps.lock, runId, executionArn);
  const outcome = await controlRun(steering, {
    runId,
    jobs: [key],
    request,
    answeredBy: request.requestedBy,
    decisionId: randomUUID(),
  });
  return { ...outcome, runId };
}

/**
 * Answers the parked pause question `question`, each retry of it the same answer. Refusals of the
 * answer itself (decided first, timed out) come back as ApprovalError, for the caller to say as they are.
 */
async function answerPause(
  question: PendingApproval,
  decide: () => Promise<DecideOutcome>,
): Promise<DecideOutcome> {
  try {
    return await retryTransient(decide);
  } catch (error) {
    if (error instanceof ApprovalError || error instanceof RemoteEngineError) throw error;
    throw toAwsCallError(
      {
        action: 'dynamodb:GetItem and dynamodb:UpdateItem',
        what: `answering pause question ${goQuote(question.approvalId)}`,
      },
      error,
    );
  }
}

/** The lock table's calls, a refusal naming the IAM action it needs. */
function awsLock(lock: JobLock): RunControlDeps['lock'] {
  return {
    controlRequest: (key, owner) =>
      awsCall({ action: 'dynamodb:GetItem', what: `reading the lock of job ${goQuote(key.jobId)}` }, () =>
        lock.controlRequest(key, owner),
      ),
    clearControlRequest: (key, owner, request) =>
      awsCall(
        {
          action: 'dynamodb:UpdateItem',
          what: `withdrawing the pause on the lock of job ${goQuote(key.jobId)}`,
        },
        () => lock.clearControlRequest(key, owner, request),
      ),
    requestControl: (key, owner, request) =>
      awsCall(
        {
          action: 'dynamodb:UpdateItem',
          what: `recording a ${request.verb} request on the lock of job ${goQuote(key.jobId)}`,
        },
        () => lock.requestControl(key, owner, request),
      ),
  };
}

/** The approvals table's reads that find a parked run, a refusal naming the IAM action it needs. */
function awsApprovals(approvals: ApprovalStore): ParkedQuestions['approvals'] {
  return {
    listPending: (filter) =>
      awsCall(
        {
          action: 'dynamodb:Query',
          what: `listing the pending questions of ${goQuote(filter.stateMachineArn)}`,
        },
        () => approvals.listPending(filter),
      ),
    get: (approvalId) =>
      awsCall({ action: 'dynamodb:GetItem', what: `reading question ${goQuote(approvalId)}` }, () =>
        approvals.get(approvalId),
      ),
  };
}

/** The input `executionArn` started with: it names the run, or says the execution is a fleet's. */
async function startInputOf(calls: SfnCalls, executionArn: string): Promise<unknown> {
  try {
    return await calls.startInput(executionArn, true);
  } catch (error) {
    if (error instanceof AwsCallError && error.code === 'ExecutionDoesNotExist')
      throw new RunNotRunningError(`Execution ${goQuote(executionArn)} does not exist`, { cause: error });
    throw error;
  }
}

/**
 * Every undecided question: the fleet's jobs run on the one-job state machine, which a fleet's
 * execution does not name (a scan of the sparse pending index, which holds nothing else).
 */
function allPending(approvals: ApprovalStore): Promise<PendingApproval[]> {
  return awsCall({ action: 'dynamodb:Scan', what: 'listing the pending questions' }, () =>
    approvals.listAllPending(),
  );
}

/** The lock items `owner` holds (the owner index). */
function keysHeldBy(lock: JobLock, owner: string): Promise<LockKey[]> {
  return awsCall({ action: 'dynamodb:Query', what: `finding the locks run ${goQuote(owner)} holds` }, () =>
    lock.keysHeldBy(owner),
  );
}

/** The job the run holds: a one-job run holds at most one. */
async function heldKey(lock: JobLock, runId: string, executionArn: string): Promise<LockKey> {
  const [key] = await keysHeldBy(lock, runId);
  if (key === undefined)
    throw new RunNotRunningError(
      `The restart of execution ${goQuote(executionArn)} is not running: its run holds no job lock (it has ended, or has not locked its job yet)`,
    );
  return key;
}
