/**
 * A question the execution waits on, asked at this terminal and answered through the one
 * decision function (`lib/approvals/decide.ts`): the conditional write on the question's approval
 * item, then `SendTaskSuccess`. So chat and this terminal answer the same way: whichever answers
 * first wins, the other changes nothing, and chat's message shows who decided. The workflow words
 * the question (`PendingQuestion.prompt`, read from the ask step in history) and reads the reply
 * itself ("Apply answer", Nomad's `command/job_restart.go` `shouldProceed`); the terminal's side
 * decides who asks it, and when ({@link AskQuestion}).
 *
 * Without the approvals table (`NOMAD_RESTART_APPROVALS_TABLE` unset, or its calls denied) the
 * reply goes to the task token from history directly, as before chat existed: it still reaches
 * the run, but nothing records it as the question's one decision.
 */

import { randomUUID } from 'node:crypto';
import { isClosedTaskCode } from '../../approvals/closed-task';
import { decideQuestion } from '../../approvals/decide';
import { ApprovalNotFoundError } from '../../approvals/errors';
import { goQuote } from '../../go/quote';
import { answerText, toQuestion } from '../../restart/prompt-question';
import type { Answer, Question } from '../../restart/questions';
import type { Approval, ApprovalStore } from '../../stores/approval-store';
import { awsErrorCode } from '../../stores/aws-errors';
import { type AwsRetryOptions, awsCall, retryTransient } from './aws-call';
import { AwsCallError, isAccessDeniedCode } from './errors';
import type { PendingAsk } from './execution-tracker';
import type { SfnCalls } from './sfn-calls';

/** How a denied approvals-table call ends its message: what the terminal does instead. */
const TOKEN_FALLBACK =
  '; answering with the task token from the execution history instead (chat does not learn who answered)';

/** Looks for the ask step's item this many times (the execution index is eventually consistent). */
const APPROVAL_LOOKUPS = 5;
const APPROVAL_LOOKUP_PAUSE_MS = 200;

/**
 * Asks a question for the run. `canceled` is aborted once an interrupt was confirmed: from then
 * on (also for a question that was waiting for the terminal) the asker answers with the
 * question's `defaultOnInterrupt` without asking, which ends the run. `withdrawn` is aborted when
 * the question was settled elsewhere (chat, the console, a timeout): a pending read is called off.
 * Resolves `undefined` when nobody here answered (no terminal, or withdrawn): the question stays
 * open for chat or the console. Never resolves `invalid` (it asks again itself).
 */
export type AskQuestion = (
  question: Question,
  canceled: AbortSignal,
  withdrawn: AbortSignal,
) => Promise<Answer | undefined>;

/**
 * How a question ended for this terminal: its answer decided it and the run took it, or not
 * (nobody here answered, or someone else decided first): then history says who did.
 */
export type AskOutcome = 'answered-here' | 'not-answered-here';

/** What a {@link QuestionBridge} needs. */
export interface QuestionBridgeDeps {
  readonly calls: SfnCalls;
  /** The approvals table, when known: answers are recorded there as the question's one decision. */
  readonly approvals: ApprovalStore | undefined;
  readonly ask: AskQuestion;
  /** Aborted once an interrupt was confirmed. */
  readonly canceled: AbortSignal;
  /** Who answers here, for the record and for chat (`user@host`). */
  readonly answeredBy: string;
  /** Prints one line on stderr (a fallback is said once). */
  readonly printError: (message: string) => void;
  /** Retries of the approvals table calls and of the decision (the engine's patient policy). */
  readonly retry?: AwsRetryOptions;
}

/** Asks the questions an execution parks, and answers them. */
export class QuestionBridge {
  private tableUsable = true;

  public constructor(private readonly deps: QuestionBridgeDeps) {}

  /** Asks the pending question of `executionArn` until it is answered here or `withdrawn`. */
  public async answer(
    executionArn: string,
    pending: PendingAsk,
    withdrawn: AbortSignal,
  ): Promise<AskOutcome> {
    const { deps } = this;
    const answer = await deps.ask(toQuestion(pending.question), deps.canceled, withdrawn);
    if (answer === undefined) return 'not-answered-here';
    const reply = answerText(answer);
    const store = this.tableUsable ? deps.approvals : undefined;
    // Looked up once there is a reply: by then the ask step's item has reached the index.
    const approval = store && (await this.findApproval(store, executionArn, pending));
    if (store !== undefined && approval !== undefined) {
      const outcome = await this.decide(store, approval, reply, executionArn);
      if (outcome !== undefined) return outcome;
    }
    return this.sendDirectly(executionArn, pending.taskToken, reply);
  }

  /** Records the reply as the question's decision and delivers it; `undefined`: use the token instead. */
  private async decide(
    store: ApprovalStore,
    approval: Approval,
    reply: string,
    executionArn: string,
  ): Promise<AskOutcome | undefined> {
    const deps = { approvals: store, sfn: this.deps.calls.taskAnswerClient(executionArn) };
    const request = {
      approvalId: approval.approvalId,
      reply,
      answeredBy: this.deps.answeredBy,
      via: 'terminal' as const,
      // Every try is the same answer: one that finds its own decision recorded delivers it.
      decisionId: randomUUID(),
    };
    try {
      const outcome = await retryTransient(() => decideQuestion(deps, request), this.deps.retry);
      return outcome.kind === 'decided' ? 'answered-here' : 'not-answered-here';
    } catch (error) {
      // Step Functions' own answer (the call names its action): there is no other way to answer.
      if (error instanceof AwsCallError) throw error;
      // Gone from the table (expired): the token still answers the run.
      if (error instanceof ApprovalNotFoundError) return undefined;
      if (!isAccessDeniedCode(awsErrorCode(error))) throw error;
      this.tableUsable = false;
      this.deps.printError(
        `Error recording the answer to question ${goQuote(approval.approvalId)}: ${awsErrorCode(error)}: ${(error as Error).message}; ` +
          `this needs the IAM actions dynamodb:GetItem and dynamodb:UpdateItem on the approvals table${TOKEN_FALLBACK}`,
      );
      return undefined;
    }
  }

  private async sendDirectly(executionArn: string, taskToken: string, reply: string): Promise<AskOutcome> {
    try {
      await this.deps.calls.sendTaskSuccess(
        taskToken,
        { answer: reply, answeredBy: this.deps.answeredBy },
        executionArn,
      );
      return 'answered-here';
    } catch (error) {
      // Someone answered first (chat, the console) or the question timed out: history says what
      // the workflow did with it, so following goes on.
      if (error instanceof AwsCallError && isClosedTaskCode(error.code)) return 'not-answered-here';
      throw error;
    }
  }

  private async findApproval(
    store: ApprovalStore,
    executionArn: string,
    pending: PendingAsk,
  ): Promise<Approval | undefined> {
    try {
      for (let lookup = 1; ; lookup++) {
        const approvals = await awsCall(
          {
            action: 'dynamodb:Query',
            what: `reading the pending questions of execution ${goQuote(executionArn)}`,
          },
          () => store.listByExecution(executionArn),
          this.deps.retry,
        );
        const approval = approvals.find((a) => a.taskToken === pending.taskToken);
        if (approval !== undefined || lookup >= APPROVAL_LOOKUPS) return approval;
        await new Promise((resolve) => setTimeout(resolve, APPROVAL_LOOKUP_PAUSE_MS));
      }
    } catch (error) {
      if (!(error instanceof AwsCallError && error.accessDenied)) throw error;
      this.tableUsable = false;
      this.deps.printError(`${error.message}${TOKEN_FALLBACK}`);
      return undefined;
    }
  }
}
