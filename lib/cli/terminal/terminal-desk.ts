/**
 * Who owns the terminal's questions, and where a run's answer comes from. One question at a
 * time: Nomad's interrupt question and the run's own questions take turns, first come first
 * served, so a reply always answers the question on screen (a "y" meant for "stop the restart?"
 * can never reach a workflow question that arrived meanwhile). A run's question that waited
 * behind the interrupt question is then asked in its own words, or, once the stop was
 * confirmed, answered with its default without being asked (that ends the run). Without a
 * terminal nobody here answers: the question is shown and left open for chat or the console.
 *
 * This is the one place that decides both. Chat is the other source of answers: a run's question
 * answered there is withdrawn from the desk, whether it is on screen (the read is called off) or
 * still waiting for its turn (it is never asked).
 */
import type { AskQuestion } from '../../engines/aws/question-bridge';
import type { Formatter } from '../../restart/format';
import type { Answer, Question } from '../../restart/questions';
import { askAtTerminal, askUnlessWithdrawn } from './questions';
import type { Terminal } from './terminal';

/** Serialises the questions of one command run at its terminal. */
export class TerminalDesk {
  private turn: Promise<void> = Promise.resolve();

  public constructor(
    /** Renders the questions. */
    public readonly formatter: Formatter,
    /** The terminal the questions are asked at. */
    public readonly terminal: Terminal,
  ) {}

  /**
   * Runs `section` (a question and what is done with its answer) once every earlier section has
   * ended; nothing else is asked until it ends.
   */
  public exclusive<T>(section: () => Promise<T>): Promise<T> {
    const run = this.turn.then(section);
    this.turn = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Asks `question` at the terminal in its turn (see {@link askAtTerminal}). */
  public ask(question: Question): Promise<Answer> {
    return this.exclusive(() => askAtTerminal(question, this.formatter, this.terminal));
  }

  /**
   * A run's questions ({@link AskQuestion}): asked in turn, answered by a confirmed stop, or
   * withdrawn (resolves `undefined` at once, even while waiting for its turn).
   */
  public readonly askForRun: AskQuestion = (question, canceled, withdrawn) =>
    this.askForRunAs(this.formatter)(question, canceled, withdrawn);

  /**
   * {@link askForRun} with the questions worded by `formatter` (a fleet's job names its job), in
   * the same turns as every other question of this desk.
   */
  public askForRunAs(formatter: Formatter): AskQuestion {
    return (question, canceled, withdrawn) =>
      untilWithdrawn(
        withdrawn,
        this.exclusive(async () => {
          if (withdrawn.aborted) return undefined;
          if (canceled.aborted) return question.defaultOnInterrupt;
          if (this.terminal.interactive)
            return askUnlessWithdrawn(question, formatter, this.terminal, withdrawn);
          this.terminal.write({
            stream: 'stdout',
            text: formatter.renderQuestion(question, Date.now()).trimEnd(),
          });
          this.terminal.write({
            stream: 'stderr',
            text: 'No terminal here to answer this question: it stays open for chat, the Step Functions console, or nomad-restart attach at a terminal',
          });
          return undefined;
        }),
      );
  }
}

/** `answer`, or `undefined` as soon as `withdrawn` aborts. */
function untilWithdrawn<T>(withdrawn: AbortSignal, answer: Promise<T>): Promise<T | undefined> {
  if (withdrawn.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const gone = () => resolve(undefined);
    withdrawn.addEventListener('abort', gone, { once: true });
    answer.then(resolve, reject).finally(() => withdrawn.removeEventListener('abort', gone));
  });
}
