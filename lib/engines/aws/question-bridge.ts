/**
 * A question the execution waits on, asked at this terminal and answered with
 * `SendTaskSuccess`. The workflow words the question (`PendingQuestion.prompt`) and reads the
 * reply itself ("Apply answer", spec §2.8); this side turns the prompt back into the terminal's
 * `Question` (so it is printed and read exactly as the local engine does) and the terminal's
 * `Answer` into the reply text the workflow expects.
 */

import { goQuote } from '../../restart/go-quote';
import { answerText, toQuestion } from '../../restart/prompt-question';
import type { Answer, Question } from '../../restart/questions';
import type { Approval, ApprovalStore } from '../../stores/approval-store';
import type { ApprovalAnswer } from '../../workflow/payloads';
import { type AwsRetryOptions, awsCall } from './aws-call';
import { AwsCallError } from './errors';
import type { PendingAsk } from './execution-tracker';
import type { SfnCalls } from './sfn-calls';

/** Who the workflow records as having answered. */
export const ANSWERED_BY = 'nomad-restart (terminal)';

/** `SendTaskSuccess` codes meaning the question is no longer open (answered elsewhere, or timed out). */
const CLOSED_QUESTION_CODES = new Set(['TaskTimedOut', 'TaskDoesNotExist']);

// Shared with chat and the webhook, which read answers to the same parked questions.
export { answerText, toQuestion };

/** What {@link answerPendingQuestion} needs. */
export interface QuestionBridgeDeps {
  readonly calls: SfnCalls;
  /** The approvals table, when known: the question is read from it and removed once answered. */
  readonly approvals: ApprovalStore | undefined;
  readonly ask: (question: Question) => Promise<Answer>;
  readonly retry?: AwsRetryOptions;
}

/**
 * Asks the pending question of `executionArn` at the terminal and sends the reply. The approval
 * store is consulted first (the ask step's record, with its id); the ask step's parameters in
 * history are the fallback, since the store's execution index is eventually consistent.
 */
export async function answerPendingQuestion(
  deps: QuestionBridgeDeps,
  executionArn: string,
  pending: PendingAsk,
): Promise<void> {
  const store = deps.approvals;
  const approval =
    store === undefined ? undefined : await findApproval(store, executionArn, pending, deps.retry);
  const question = toQuestion(approval ?? pending.question);
  const answer = await deps.ask(question);
  const reply: ApprovalAnswer = { answer: answerText(answer), answeredBy: ANSWERED_BY };
  try {
    await deps.calls.sendTaskSuccess(approval?.taskToken ?? pending.taskToken, reply, executionArn);
  } catch (error) {
    // Someone answered first (chat, the console) or the question timed out: history says what
    // the workflow did with it, so following goes on.
    if (!(error instanceof AwsCallError && CLOSED_QUESTION_CODES.has(error.code))) throw error;
  }
  if (store !== undefined && approval !== undefined) {
    // Clean-up only: the item expires on its own, and a failed delete must not end the run.
    await store.delete(approval.approvalId).catch(() => undefined);
  }
}

async function findApproval(
  store: ApprovalStore,
  executionArn: string,
  pending: PendingAsk,
  retry: AwsRetryOptions | undefined,
): Promise<Approval | undefined> {
  const approvals = await awsCall(
    'Query',
    `reading the pending questions of execution ${goQuote(executionArn)}`,
    () => store.listByExecution(executionArn),
    retry,
  );
  return approvals.find((a) => a.taskToken === pending.taskToken);
}
