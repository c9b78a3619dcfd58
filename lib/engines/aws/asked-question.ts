/**
 * The question being asked at the terminal while the follower keeps reading history, so that an
 * answer given elsewhere (chat, the console) or a timeout shows as it arrives: history's record of
 * the question's end withdraws the pending read, and its line says who answered what. A question
 * this terminal decided is not announced again (Nomad prints nothing after a typed answer).
 */
import type { ProgressEvent } from '../../restart/events';
import type { PendingAsk } from './execution-tracker';
import type { AskOutcome, QuestionBridge } from './question-bridge';

/** One question asked here. */
interface Asking {
  readonly withdraw: AbortController;
  /** Settles when asking ended, with its outcome or what it failed with; never rejects. */
  readonly done: Promise<void>;
  outcome?: AskOutcome;
  failure?: { readonly error: unknown };
}

/** Whether `event` is the end of a question, as history reports it. */
export function isQuestionEnd(event: ProgressEvent): boolean {
  return event.type === 'question-answered' || event.type === 'question-timed-out';
}

/** The questions of one followed run, asked one at a time. */
export class AskedQuestion {
  private current: Asking | undefined;

  public constructor(private readonly bridge: QuestionBridge) {}

  /** Starts asking `pending` (the question `executionArn` waits on now) in the background. */
  public start(executionArn: string, pending: PendingAsk): void {
    const withdraw = new AbortController();
    const asking: Asking = {
      withdraw,
      done: this.bridge.answer(executionArn, pending, withdraw.signal).then(
        (outcome) => {
          asking.outcome = outcome;
        },
        (error: unknown) => {
          asking.failure = { error };
        },
      ),
    };
    this.current = asking;
  }

  /** Settles once the question being asked ends here (answered, or asking failed); `undefined` when none is. */
  public settling(): Promise<void> | undefined {
    const asking = this.current;
    return asking === undefined || asking.outcome !== undefined || asking.failure !== undefined
      ? undefined
      : asking.done;
  }

  /**
   * History says the question ended: the pending read (if any) is withdrawn. Resolves whether that
   * end is news here, i.e. this terminal did not decide it.
   */
  public async ended(): Promise<boolean> {
    const asking = this.current;
    if (asking === undefined) return true;
    asking.withdraw.abort();
    await asking.done;
    // Kept while failed: `throwIfFailed` reports it.
    if (asking.failure === undefined) this.current = undefined;
    return asking.outcome !== 'answered-here';
  }

  /** Rethrows what asking failed with (an AWS error that is an answer, e.g. access denied). */
  public throwIfFailed(): void {
    const failure = this.current?.failure;
    if (failure !== undefined) throw failure.error;
  }

  /** The execution ended: nobody is left to answer the question still asked (if any). */
  public async close(): Promise<void> {
    await this.ended();
    this.throwIfFailed();
  }
}
