/**
 * The local engine's prompt at the terminal (lib/cli/terminal/questions.ts): a question a request
 * may answer instead (the pause question, given a `withdrawn` signal) is read from a person when
 * one is there and called off when the request answers first; with nobody at the terminal it is
 * only shown, so a script's end of input never answers a pause someone else asked for.
 */
import { terminalPrompt } from '../../../lib/cli/terminal/questions';
import type { ReadResult, Terminal } from '../../../lib/cli/terminal/terminal';
import { createFormatter, type OutputLine } from '../../../lib/restart/format';

const PROMPT = 'Paused by bob@laptop-2 (terminal) at 2026-12-07T14:02:10Z.\n Resume the restart? [y/N]';

/** A terminal whose reads end as `read` says (or when withdrawn), recording what it printed. */
function fakeTerminal(interactive: boolean, read: () => Promise<ReadResult>) {
  const written: OutputLine[] = [];
  const reads: string[] = [];
  const terminal: Terminal = {
    interactive,
    reading: false,
    write: (line) => written.push(line),
    notice: () => {},
    read: (prompt, withdrawn) => {
      reads.push(prompt);
      const calledOff = new Promise<ReadResult>((resolve) =>
        withdrawn?.addEventListener('abort', () => resolve({ kind: 'withdrawn' }), { once: true }),
      );
      return Promise.race([read(), calledOff]);
    },
    interruptRead: () => {},
    close: () => {},
  };
  return { terminal, written, reads };
}

const formatter = createFormatter({ verbose: false, color: false, timeZone: 'UTC' });
const never = () => new Promise<ReadResult>(() => {});

describe('terminalPrompt', () => {
  it('only shows a question a request may answer when nobody is at the terminal, and waits for it', async () => {
    // Arrange
    const { terminal, written, reads } = fakeTerminal(false, async () => ({ kind: 'eof' }));
    const withdrawn = new AbortController();

    // Act
    const reply = terminalPrompt(formatter, terminal)(PROMPT, undefined, withdrawn.signal);
    await new Promise((resolve) => setImmediate(resolve));
    withdrawn.abort();

    // Assert
    expect(await reply).toEqual({ kind: 'withdrawn' });
    expect(reads).toEqual([]);
    expect(written).toEqual([
      { stream: 'stdout', text: expect.stringContaining('Resume the restart? [y/N]') },
    ]);
  });

  it('reads the answer of a person at the terminal', async () => {
    // Arrange
    const { terminal } = fakeTerminal(true, async () => ({ kind: 'line', text: ' y ' }));

    // Act
    const reply = await terminalPrompt(formatter, terminal)(PROMPT, undefined, new AbortController().signal);

    // Assert
    expect(reply).toEqual({ kind: 'answer', text: 'y' });
  });

  it('calls the read off when a request answers first', async () => {
    // Arrange
    const { terminal, written } = fakeTerminal(true, never);
    const withdrawn = new AbortController();

    // Act
    const reply = terminalPrompt(formatter, terminal)(PROMPT, undefined, withdrawn.signal);
    withdrawn.abort();

    // Assert
    expect(await reply).toEqual({ kind: 'withdrawn' });
    expect(written).toEqual([]);
  });

  it('still answers a question nothing else answers with its read error at the end of input', async () => {
    // Arrange
    const { terminal } = fakeTerminal(false, async () => ({ kind: 'eof' }));

    // Act
    const reply = await terminalPrompt(formatter, terminal)('Proceed with the next batch? [Y/n]', undefined);

    // Assert
    expect(reply).toEqual({ kind: 'read-error', text: 'EOF' });
  });
});
