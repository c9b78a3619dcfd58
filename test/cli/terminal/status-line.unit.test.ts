// Scenario: the status line on a fake terminal whose stderr is or is not a TTY: drawn in place,
// erased before each line and before a question, and never written to a stderr that is no TTY.
import { PassThrough } from 'node:stream';
import { ERASE_LINE, startStatusLine } from '../../../lib/cli/terminal/status-line';
import { createTerminal } from '../../../lib/cli/terminal/terminal';

/** Streams whose stdout and stderr bytes are kept apart, stderr a TTY when `tty`. */
function streams(tty: boolean, columns = 80) {
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  const stdout = Object.assign(new PassThrough(), { isTTY: true });
  const stderr = Object.assign(new PassThrough(), { isTTY: tty, columns });
  const written = { stdout: '', stderr: '' };
  stdout.on('data', (chunk: Buffer) => {
    written.stdout += chunk.toString('utf8');
  });
  stderr.on('data', (chunk: Buffer) => {
    written.stderr += chunk.toString('utf8');
  });
  return { stdin, stdout, stderr, written };
}

describe('startStatusLine', () => {
  it('draws nothing and wraps nothing when stderr is not a terminal', () => {
    // Arrange
    const s = streams(false);

    // Act
    const line = startStatusLine(createTerminal(s), { stderr: s.stderr, env: {} }, () => 'batch 1 of 3');

    // Assert
    expect(line).toBeUndefined();
    expect(s.written.stderr).toBe('');
  });

  it('draws nothing at a terminal that cannot move its cursor (TERM=dumb)', () => {
    // Arrange
    const s = streams(true);

    // Act
    const line = startStatusLine(createTerminal(s), { stderr: s.stderr, env: { TERM: 'dumb' } }, () => 'x');

    // Assert
    expect(line).toBeUndefined();
    expect(s.written.stderr).toBe('');
  });

  it('erases itself before a line and draws itself again after it', () => {
    // Arrange
    const s = streams(true);
    const line = startStatusLine(createTerminal(s), { stderr: s.stderr, env: {} }, () => 'batch 1 of 3');
    line?.redraw();

    // Act
    line?.terminal.write({ stream: 'stderr', text: 'an error' });
    line?.stop();

    // Assert
    expect(s.written.stderr).toBe(
      `${ERASE_LINE}batch 1 of 3${ERASE_LINE}an error\n${ERASE_LINE}batch 1 of 3${ERASE_LINE}`,
    );
  });

  it('leaves stdout exactly the lines written to it', () => {
    // Arrange
    const s = streams(true);
    const line = startStatusLine(createTerminal(s), { stderr: s.stderr, env: {} }, () => 'batch 1 of 3');

    // Act
    line?.redraw();
    line?.terminal.write({ stream: 'stdout', text: '==> Restarting 3 allocations' });
    line?.redraw();
    line?.stop();

    // Assert
    expect(s.written.stdout).toBe('==> Restarting 3 allocations\n');
  });

  it('keeps to one column less than the terminal is wide', () => {
    // Arrange
    const s = streams(true, 11);
    const line = startStatusLine(
      createTerminal(s),
      { stderr: s.stderr, env: {} },
      () => 'batch 10 of 30 | 9 restarted',
    );

    // Act
    line?.redraw();

    // Assert
    expect(s.written.stderr).toBe(`${ERASE_LINE}batch 10 o`);
    line?.stop();
  });

  it('is not drawn while a question is read, and is drawn again after the answer', async () => {
    // Arrange
    const s = streams(true);
    const line = startStatusLine(createTerminal(s), { stderr: s.stderr, env: {} }, () => 'paused');
    line?.redraw();

    // Act
    const read = line?.terminal.read('Resume? [y/N] ');
    line?.redraw();
    const whileReading = s.written.stderr;
    s.stdin.write('y\n');
    await read;
    line?.stop();

    // Assert
    expect(whileReading).toBe(`${ERASE_LINE}paused${ERASE_LINE}`);
    expect(s.written.stderr).toBe(`${ERASE_LINE}paused${ERASE_LINE}${ERASE_LINE}paused${ERASE_LINE}`);
    expect(s.written.stdout).toBe('Resume? [y/N] ');
  });
});
