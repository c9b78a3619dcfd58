/**
 * Scenario: the command's terminal loads `node:readline` (and the eight modules behind it, ~3 ms of
 * CPU) at its first question: a run that asks none, a flag error or a piped run, never loads it.
 * Checked in a child Node process: jest's own process has it loaded already.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const TERMINAL = pathToFileURL(
  join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'lib', 'cli', 'terminal', 'terminal.ts'),
).href;

/** Whether `node:readline` is loaded once a terminal wrote a line, and (with `ask`) asked a question. */
function readlineLoaded(ask: boolean): boolean {
  const script = `
    import { PassThrough } from 'node:stream';
    import { createTerminal } from ${JSON.stringify(TERMINAL)};
    const tty = (stream) => Object.assign(stream, { isTTY: true });
    const terminal = createTerminal({ stdin: tty(new PassThrough()), stdout: tty(new PassThrough()), stderr: new PassThrough() });
    terminal.write({ stream: 'stdout', text: 'a line' });
    if (${ask}) void terminal.read('Question? ');
    process.stdout.write(JSON.stringify(process.moduleLoadList.includes('NativeModule readline')));
    terminal.close();`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(child.stderr);
  return JSON.parse(child.stdout) as boolean;
}

describe('createTerminal', () => {
  it('loads node:readline at the first question, not before', () => {
    // Act
    const [written, asked] = [readlineLoaded(false), readlineLoaded(true)];

    // Assert
    expect({ written, asked }).toEqual({ written: false, asked: true });
  });
});
