/**
 * Questions at the terminal (Nomad's `command/job_restart.go` `askQuestion`): the prompt and one
 * space, one trimmed line read, `Invalid answer "<text>"` and the question again for a reply that
 * is not understood, and a read error (EOF, SIGINT while reading) printed and answered with the
 * question's default. A run on AWS can also be answered elsewhere (chat): then the pending read is
 * withdrawn.
 */

import type { PromptReply } from '../../engines/local/engine';
import type { Formatter } from '../../restart/format';
import { type Answer, interpretAnswer, type Question } from '../../restart/questions';
import type { ReadResult, Terminal } from './terminal';

function reportReadError(
  read: Extract<ReadResult, { kind: 'eof' | 'interrupted' }>,
  formatter: Formatter,
  terminal: Terminal,
) {
  terminal.write(read.kind === 'eof' ? formatter.renderReadError('EOF') : formatter.renderReadInterrupted());
}

/**
 * Asks `question` until it is answered, or until `withdrawn` aborts (then `undefined`: someone
 * else answered it). Never returns `invalid`.
 */
export async function askUnlessWithdrawn(
  question: Question,
  formatter: Formatter,
  terminal: Terminal,
  withdrawn: AbortSignal | undefined,
): Promise<Answer | undefined> {
  for (;;) {
    const read = await terminal.read(formatter.renderQuestion(question, Date.now()), withdrawn);
    if (read.kind === 'withdrawn') return undefined;
    if (read.kind !== 'line') {
      reportReadError(read, formatter, terminal);
      return question.defaultOnInterrupt;
    }
    const answer = interpretAnswer(question, read.text.trim());
    if (answer.kind !== 'invalid') return answer;
    terminal.write(formatter.renderInvalidAnswer(answer.text));
  }
}

/** Asks `question` until it is answered, and returns the answer (never `invalid`). */
export async function askAtTerminal(
  question: Question,
  formatter: Formatter,
  terminal: Terminal,
): Promise<Answer> {
  // Nothing withdraws it: only a read error ends it without an answer, and that has a default.
  return (await askUnlessWithdrawn(question, formatter, terminal, undefined)) ?? question.defaultOnInterrupt;
}

/**
 * The local engine's prompt: the workflow words the question and reads the reply itself (its
 * "Apply answer" step), so this only prints, reads, and says when the last reply was refused. A
 * question a request may answer instead (`withdrawn` given: the pause question) is only shown when
 * no person is at the terminal, and waits for that request: a script's stdin at its end must not
 * answer "no" to a pause someone else asked for.
 */
export function terminalPrompt(formatter: Formatter, terminal: Terminal) {
  return async (
    prompt: string,
    invalidAnswer: string | undefined,
    withdrawn?: AbortSignal,
  ): Promise<PromptReply> => {
    if (invalidAnswer !== undefined) terminal.write(formatter.renderInvalidAnswer(invalidAnswer.trim()));
    const rendered = formatter.renderPrompt(prompt, Date.now());
    if (withdrawn !== undefined && !terminal.interactive) {
      terminal.write({ stream: 'stdout', text: rendered.trimEnd() });
      await new Promise((resolve) =>
        withdrawn.aborted ? resolve(undefined) : withdrawn.addEventListener('abort', resolve, { once: true }),
      );
      return { kind: 'withdrawn' };
    }
    const read = await terminal.read(rendered, withdrawn);
    if (read.kind === 'withdrawn') return read;
    if (read.kind === 'line') return { kind: 'answer', text: read.text.trim() };
    const failed = read.kind === 'eof' ? read : ({ kind: 'interrupted' } as const);
    reportReadError(failed, formatter, terminal);
    return { kind: 'read-error', text: failed.kind === 'eof' ? 'EOF' : 'interrupted' };
  };
}
