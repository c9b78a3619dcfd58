/**
 * Questions at the terminal (spec §2.8): the prompt and one space, one trimmed line read,
 * `Invalid answer "<text>"` and the question again for a reply that is not understood, and a
 * read error (EOF, SIGINT while reading) printed and answered with the question's default.
 */

import type { PromptReply } from '../engines/local/engine';
import type { Formatter } from '../restart/format';
import { type Answer, interpretAnswer, type Question } from '../restart/questions';
import type { ReadResult, Terminal } from './terminal';

function reportReadError(
  read: Exclude<ReadResult, { kind: 'line' }>,
  formatter: Formatter,
  terminal: Terminal,
) {
  terminal.write(read.kind === 'eof' ? formatter.renderReadError('EOF') : formatter.renderReadInterrupted());
}

/** Asks `question` until it is answered, and returns the answer (never `invalid`). */
export async function askAtTerminal(
  question: Question,
  formatter: Formatter,
  terminal: Terminal,
): Promise<Answer> {
  for (;;) {
    const read = await terminal.read(formatter.renderQuestion(question, Date.now()));
    if (read.kind !== 'line') {
      reportReadError(read, formatter, terminal);
      return question.defaultOnInterrupt;
    }
    const answer = interpretAnswer(question, read.text.trim());
    if (answer.kind !== 'invalid') return answer;
    terminal.write(formatter.renderInvalidAnswer(answer.text));
  }
}

/**
 * The local engine's prompt: the workflow words the question and reads the reply itself (its
 * "Apply answer" step), so this only prints, reads, and says when the last reply was refused.
 */
export function terminalPrompt(formatter: Formatter, terminal: Terminal) {
  return async (prompt: string, invalidAnswer: string | undefined): Promise<PromptReply> => {
    if (invalidAnswer !== undefined) terminal.write(formatter.renderInvalidAnswer(invalidAnswer.trim()));
    const read = await terminal.read(formatter.renderPrompt(prompt, Date.now()));
    if (read.kind === 'line') return { kind: 'answer', text: read.text.trim() };
    reportReadError(read, formatter, terminal);
    return { kind: 'read-error', text: read.kind === 'eof' ? 'EOF' : 'interrupted' };
  };
}
