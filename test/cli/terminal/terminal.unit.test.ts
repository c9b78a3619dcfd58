// Scenario: the command's terminal over streams whose stdin counts how often it is touched: a
// piped or scripted run (stdout no TTY) never makes Node's stdin stream, which costs a start.
import { PassThrough } from 'node:stream';
import { createTerminal, type TerminalStreams } from '../../../lib/cli/terminal/terminal';

/** Streams whose stdin is made on first read, as `process.stdin` is, and counts it. */
function streams(stdoutTty: boolean) {
  const made = { stdin: 0 };
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  const out: TerminalStreams = {
    get stdin() {
      made.stdin++;
      return stdin;
    },
    stdout: Object.assign(new PassThrough(), { isTTY: stdoutTty }),
    stderr: new PassThrough(),
  };
  return { out, made };
}

describe('createTerminal', () => {
  it('never touches stdin when stdout is not a terminal', () => {
    // Arrange
    const { out, made } = streams(false);

    // Act
    const terminal = createTerminal(out);
    terminal.close();

    // Assert
    expect(terminal.interactive).toBe(false);
    expect(made.stdin).toBe(0);
  });

  it('is interactive when stdin and stdout are both terminals', () => {
    // Arrange
    const { out, made } = streams(true);

    // Act
    const terminal = createTerminal(out);
    terminal.close();

    // Assert
    expect(terminal.interactive).toBe(true);
    expect(made.stdin).toBe(1);
  });
});
