/**
 * A question the execution waits on, asked at this terminal and answered with
 * `SendTaskSuccess`. The workflow words the question (`PendingQuestion.prompt`) and reads the
 * reply itself ("Apply answer", spec §2.8); this side turns the prompt back into the terminal's
 * `Question` (so it is printed and read exactly as the local engine does) and the terminal's
 * `Answer` into the reply text the workflow expects. Who asks it, and when, is the asker's
 * decision ({@link AskQuestion}): the command's side owns the terminal.
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

/**
 * Asks a question for the run. `canceled` is aborted once an interrupt was confirmed: from then
 * on (also for a question that was waiting for the terminal) the asker answers with the
 * question's `defaultOnInterrupt` without asking, which ends the run. Resolves `undefined` when
 * nobody can answer here (no terminal): the question stays open for chat or the console.
 * Never resolves `invalid` (it asks again itself).
 */
export type AskQuestion = (question: Question, canceled: AbortSignal) => Promise<Answer | undefined>;

/** What a {@link QuestionBridge} needs. */
export interface QuestionBridgeDeps {
  readonly calls: SfnCalls;
  /** The approvals table, when known: the question is read from it and removed once answered. */
  readonly approvals: ApprovalStore | undefined;
  readonly ask: AskQuestion;
  /** Aborted once an interrupt was confirmed. */
  readonly canceled: AbortSignal;
  /** Prints one line on stderr (the table's fallback is said once). */
  readonly printError: (message: string) => void;
  /** Retries of the approvals table read (the engine's patient policy). */
  readonly retry?: AwsRetryOptions;
}

/**
 * Asks the questions an execution parks, and sends the replies. The approval store is consulted
 * first (the ask step's record, with its id); the ask step's parameters in history are the
 * fallback, since the store's execution index is eventually consistent, and the only source once
 * reading the table was denied.
 */
export class QuestionBridge {
  private tableReadable = true;

  public constructor(private readonly deps: QuestionBridgeDeps) {}

  /** Asks the pending question of `executionArn`; `false` when it was left open (nobody here can answer). */
  public async answer(executionArn: string, pending: PendingAsk): Promise<boolean> {
    const { deps } = this;
    const store = this.tableReadable ? deps.approvals : undefined;
    const approval = store === undefined ? undefined : await this.findApproval(store, executionArn, pending);
    const answer = await deps.ask(toQuestion(approval ?? pending.question), deps.canceled);
    if (answer === undefined) return false;
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
    return true;
  }

  private async findApproval(
    store: ApprovalStore,
    executionArn: string,
    pending: PendingAsk,
  ): Promise<Approval | undefined> {
    try {
      const approvals = await awsCall(
        {
          action: 'dynamodb:Query',
          what: `reading the pending questions of execution ${goQuote(executionArn)}`,
        },
        () => store.listByExecution(executionArn),
        this.deps.retry,
      );
      return approvals.find((a) => a.taskToken === pending.taskToken);
    } catch (error) {
      if (!(error instanceof AwsCallError && error.accessDenied)) throw error;
      this.tableReadable = false;
      this.deps.printError(`${error.message}; reading questions from the execution history instead`);
      return undefined;
    }
  }
}
