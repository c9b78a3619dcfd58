// Scenario: the command's terminal over streams whose stdin counts how often it is touched: a
// piped or scripted run (stdout no TTY) never makes Node's stdin stream, which costs a start; and
// given whether stdout is a TTY, the terminal never makes stdout for it either.
import { PassThrough } from 'node:stream';
import { createTerminal, stdoutIsTty, type TerminalStreams } from '../../../lib/cli/terminal/terminal';

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

  it('takes stdoutIsTTY over the stream, never making stdout to ask it', () => {
    // Arrange
    const { out } = streams(false);
    let stdoutMade = 0;
    const known: TerminalStreams = {
      stdin: out.stdin,
      get stdout() {
        stdoutMade++;
        return out.stdout;
      },
      stderr: out.stderr,
      stdoutIsTTY: true,
    };

    // Act
    const terminal = createTerminal(known);
    terminal.close();

    // Assert
    expect(terminal.interactive).toBe(true);
    expect(stdoutIsTty(known)).toBe(true);
    expect(stdoutMade).toBe(0);
  });
});
