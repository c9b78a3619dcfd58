/**
 * One decision per question, whoever answers (chat, the webhook, a terminal): the reply is read
 * exactly as Nomad reads it, recorded with a conditional write so that of racing answers exactly
 * one wins, and only then sent to the waiting execution with `SendTaskSuccess`. Later answers
 * learn who decided what and when, and make no Step Functions call. Needs nothing but an
 * approvals store and a Step Functions client (plain AWS credentials do).
 */
import { randomUUID } from 'node:crypto';
import { SendTaskSuccessCommand, type SFNClient } from '@aws-sdk/client-sfn';
import { goQuote } from '../restart/go-quote';
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
import { ApprovalDeliveryError, ApprovalNotFoundError, InvalidApprovalAnswerError } from './errors';

/** What {@link decideQuestion} works with. */
export interface DecideDeps {
  readonly approvals: ApprovalStore;
  readonly sfn: SFNClient;
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
  readonly via: Exclude<DecisionVia, 'timeout'>;
}

/** How an answer ended. */
export type DecideOutcome =
  /** This answer decided the question and the execution took it. */
  | { readonly kind: 'decided'; readonly approval: Approval; readonly decision: ApprovalDecision }
  /** Someone (or the timeout) decided first: this answer changed nothing. */
  | { readonly kind: 'already-decided'; readonly decision: ApprovalDecision }
  /** The run had ended (or the question timed out) before this answer reached it: nothing changed. */
  | { readonly kind: 'run-finished'; readonly approval: Approval; readonly decision: ApprovalDecision };

/** `SendTaskSuccess` errors meaning the execution no longer waits on this token. */
const CLOSED_TASK_CODES = new Set(['TaskTimedOut', 'InvalidToken', 'TaskDoesNotExist']);

/**
 * Answers one question. Throws `ApprovalNotFoundError` (unknown id), `InvalidApprovalAnswerError`
 * (a reply Nomad would not accept: nothing is recorded, the question stays open) and
 * `ApprovalDeliveryError` (Step Functions failed for a transient reason: the decision is taken
 * back so the answer can be given again).
 */
export async function decideQuestion(deps: DecideDeps, request: AnswerRequest): Promise<DecideOutcome> {
  const now = deps.now ?? Date.now;
  const approval = await readQuestion(deps.approvals, request.approvalId);
  if (approval.decision !== undefined) return { kind: 'already-decided', decision: approval.decision };
  const answer = interpretAnswer(toQuestion(approval), request.reply);
  if (answer.kind === 'invalid') {
    const options = toQuestion(approval).options;
    throw new InvalidApprovalAnswerError(
      `Invalid answer ${goQuote(answer.text)}: the question takes ${options}`,
    );
  }
  const decision: ApprovalDecision = {
    decisionId: randomUUID(),
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
  if (!result.won) return { kind: 'already-decided', decision: result.decision };
  const reply: ApprovalAnswer = { answer: decision.answer, answeredBy: decision.answeredBy };
  try {
    await deps.sfn.send(
      new SendTaskSuccessCommand({ taskToken: approval.taskToken, output: JSON.stringify(reply) }),
    );
  } catch (error) {
    if (CLOSED_TASK_CODES.has(awsErrorCode(error))) {
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
