/**
 * One decision per question, whoever answers (chat, the webhook, a terminal): the reply is read
 * exactly as Nomad reads it, recorded with a conditional write so that of racing answers exactly
 * one wins, and only then sent to the waiting execution with `SendTaskSuccess`. Later answers
 * learn who decided what and when, and make no Step Functions call. Needs nothing but an
 * approvals store and a Step Functions client (plain AWS credentials do).
 */
import { randomUUID } from 'node:crypto';
import { DescribeExecutionCommand, SendTaskSuccessCommand } from '@aws-sdk/client-sfn';
import { goQuote } from '../go/quote';
import { answerText, toQuestion } from '../restart/prompt-question';
import { interpretAnswer } from '../restart/questions';
import {
  type Approval,
  type ApprovalDecision,
  type ApprovalStore,
  type DecisionVia,
  isApprovalId,
} from '../stores/approval-store';
import { awsErrorCode, isTransientAwsError } from '../stores/aws-errors';
import { StoreItemNotFoundError } from '../stores/errors';
import type { ApprovalAnswer } from '../workflow/payloads';
import { isClosedTaskCode, TASK_TIMED_OUT } from './closed-task';
import {
  ApprovalDeliveryError,
  ApprovalExpiredError,
  ApprovalNotFoundError,
  InvalidApprovalAnswerError,
} from './errors';

/**
 * The Step Functions calls a decision makes (`SendTaskSuccess`, and `DescribeExecution` when the
 * answer's fate is unclear); an `SFNClient` is one.
 */
export interface TaskAnswerClient {
  send(command: SendTaskSuccessCommand | DescribeExecutionCommand): Promise<unknown>;
}

/** What {@link decideQuestion} works with. */
export interface DecideDeps {
  readonly approvals: ApprovalStore;
  readonly sfn: TaskAnswerClient;
  /** Unix milliseconds. @default Date.now */
  readonly now?: () => number;
}

/** One answer to one question. */
export interface AnswerRequest {
  readonly approvalId: string;
  /** The reply as typed or chosen: `yes`, `n`, `10s`, ... (trimmed and read as Nomad reads it). */
  readonly reply: string;
  /** Who answered, for the record and for later answerers. */
  readonly answeredBy: string;
  readonly via: Exclude<DecisionVia, 'timeout' | 'run-ended'>;
  /**
   * The same for every try of one answer: a try after a lost reply finds its own decision recorded
   * and delivers it, instead of taking it for someone else's. @default - a new one
   */
  readonly decisionId?: string;
}

/** How an answer ended. */
export type DecideOutcome =
  /** This answer decided the question and the execution took it. */
  | { readonly kind: 'decided'; readonly approval: Approval; readonly decision: ApprovalDecision }
  /** Someone (or the timeout) decided first: this answer changed nothing. */
  | { readonly kind: 'already-decided'; readonly decision: ApprovalDecision }
  /** The run had ended (or the question timed out) before this answer reached it: nothing changed. */
  | { readonly kind: 'run-finished'; readonly approval: Approval; readonly decision: ApprovalDecision };

/**
 * Answers one question. Throws `ApprovalNotFoundError` (unknown id), `ApprovalExpiredError` (an
 * undecided question past its timeout), `InvalidApprovalAnswerError`
 * (a reply Nomad would not accept: nothing is recorded, the question stays open) and
 * `ApprovalDeliveryError` (Step Functions failed for a transient reason: the decision is taken
 * back so the answer can be given again).
 */
export async function decideQuestion(deps: DecideDeps, request: AnswerRequest): Promise<DecideOutcome> {
  const now = deps.now ?? Date.now;
  const approval = await readQuestion(deps.approvals, request.approvalId);
  const decisionId = request.decisionId ?? randomUUID();
  const earlier = approval.decision;
  if (earlier !== undefined) {
    if (!isUndeliveredTry(earlier, decisionId)) return { kind: 'already-decided', decision: earlier };
    return deliver(deps, approval, earlier);
  }
  // Past its timeout the run has applied (or is applying) Nomad's default: too late to answer.
  if (approval.timesOutAt !== undefined && now() / 1000 >= approval.timesOutAt)
    throw new ApprovalExpiredError(approval.approvalId);
  const answer = interpretAnswer(toQuestion(approval), request.reply);
  if (answer.kind === 'invalid') {
    const options = toQuestion(approval).options;
    throw new InvalidApprovalAnswerError(
      `Invalid answer ${goQuote(answer.text)}: the question takes ${options}`,
    );
  }
  const decision: ApprovalDecision = {
    decisionId,
    answer: answerText(answer),
    answeredBy: request.answeredBy,
    via: request.via,
    decidedAt: Math.floor(now() / 1000),
  };
  const result = await deps.approvals.decide(approval.approvalId, decision).catch((error: unknown) => {
    // Deleted between the read and the write (the run ended and its questions were dropped).
    if (error instanceof StoreItemNotFoundError) throw new ApprovalNotFoundError(approval.approvalId);
    throw error;
  });
  if (!result.won && !isUndeliveredTry(result.decision, decisionId))
    return { kind: 'already-decided', decision: result.decision };
  return deliver(deps, approval, decision);
}

/** Whether `decision` is this answer's own, recorded by an earlier try that never delivered it. */
const isUndeliveredTry = (decision: ApprovalDecision, decisionId: string) =>
  decision.decisionId === decisionId && decision.outcome === undefined;

/**
 * Whether the question can still take the answer `decisionId`: undecided, or decided by an
 * earlier try of that same answer that was never delivered. An unknown id counts as open: the
 * decision then says it is unknown.
 */
export async function isOpenFor(
  approvals: ApprovalStore,
  approvalId: string,
  decisionId: string,
): Promise<boolean> {
  if (!isApprovalId(approvalId)) return true;
  try {
    const { decision } = await approvals.get(approvalId);
    return decision === undefined || isUndeliveredTry(decision, decisionId);
  } catch (error) {
    if (error instanceof StoreItemNotFoundError) return true;
    throw error;
  }
}

/** Sends the decision to the waiting execution and records what became of it. */
async function deliver(
  deps: DecideDeps,
  approval: Approval,
  decision: ApprovalDecision,
): Promise<DecideOutcome> {
  const reply: ApprovalAnswer = { answer: decision.answer, answeredBy: decision.answeredBy };
  try {
    await deps.sfn.send(
      new SendTaskSuccessCommand({ taskToken: approval.taskToken, output: JSON.stringify(reply) }),
    );
  } catch (error) {
    const code = awsErrorCode(error);
    if (code === TASK_TIMED_OUT && (await tookAnAnswer(deps, approval))) {
      await deps.approvals.settleDecision(approval.approvalId, decision.decisionId, 'delivered');
      return { kind: 'decided', approval, decision: { ...decision, outcome: 'delivered' } };
    }
    if (isClosedTaskCode(code)) {
      await deps.approvals.settleDecision(approval.approvalId, decision.decisionId, 'run-finished');
      return { kind: 'run-finished', approval, decision: { ...decision, outcome: 'run-finished' } };
    }
    // Not delivered: reopen the question rather than leave a decision the run never saw.
    await deps.approvals.withdrawDecision(approval.approvalId, decision.decisionId);
    if (isTransientAwsError(error)) {
      throw new ApprovalDeliveryError(
        `Step Functions did not take the answer (${awsErrorCode(error)}); the question is still open, answer again`,
        { cause: error },
      );
    }
    throw error;
  }
  await deps.approvals.settleDecision(approval.approvalId, decision.decisionId, 'delivered');
  return { kind: 'decided', approval, decision: { ...decision, outcome: 'delivered' } };
}

/**
 * Whether the question's task closed by taking an answer: the execution still runs and the
 * question had not timed out. Our decision won the question, so that answer was this one,
 * delivered by an earlier try whose response was lost (it then reopened the question and asked
 * to answer again). When the execution cannot be read, the answer is not claimed.
 */
async function tookAnAnswer(deps: DecideDeps, approval: Approval): Promise<boolean> {
  const now = (deps.now ?? Date.now)() / 1000;
  if (approval.timesOutAt !== undefined && now >= approval.timesOutAt) return false;
  try {
    const execution = (await deps.sfn.send(
      new DescribeExecutionCommand({ executionArn: approval.executionId }),
    )) as { status?: string } | undefined;
    return execution?.status === 'RUNNING';
  } catch {
    return false;
  }
}

async function readQuestion(approvals: ApprovalStore, approvalId: string): Promise<Approval> {
  if (!isApprovalId(approvalId)) throw new ApprovalNotFoundError(approvalId);
  try {
    return await approvals.get(approvalId);
  } catch (error) {
    if (error instanceof StoreItemNotFoundError)
      throw new ApprovalNotFoundError(approvalId, { cause: error });
    throw error;
  }
}
