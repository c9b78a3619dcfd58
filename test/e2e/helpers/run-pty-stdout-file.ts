/**
 * Runs the real command with stdin and stderr on a pseudo-terminal and stdout in a file (what
 * `nomad-restart ... > out.txt` at a terminal does), or all three on the pseudo-terminal: the
 * status line's stream (stderr) is a TTY either way, and the file holds stdout's exact bytes.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pty from 'node-pty';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'bin', 'nomad-restart.js');
/** A run that outlives this is killed, so a stuck run fails the test instead of hanging it. */
const KILL_AFTER_MS = 60_000;

/** What came out: the pseudo-terminal's bytes as written (no `\r` removed), and stdout's file. */
export interface PtyRun {
  readonly code: number;
  /** Everything the terminal received, `\r\n` as the terminal's line discipline writes it. */
  readonly screen: string;
  /** stdout's bytes, when it went to a file; `undefined` when it went to the terminal. */
  readonly stdout: string | undefined;
}

/**
 * Runs `nomad-restart -no-color <args>` at a pseudo-terminal 250 columns wide.
 * @param stdoutToFile stdout goes to a file instead of the terminal
 */
export async function runAtTerminal(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  stdoutToFile: boolean,
): Promise<PtyRun> {
  const dir = await mkdtemp(join(tmpdir(), 'status-line-'));
  const out = join(dir, 'stdout.txt');
  try {
    // `exec` keeps the command's own exit code; the shell only sets up the redirection.
    const [file, argv] = stdoutToFile
      ? ['/bin/sh', ['-c', 'exec "$0" "$@" > "$STDOUT_FILE"', process.execPath, BIN, '-no-color', ...args]]
      : [process.execPath, [BIN, '-no-color', ...args]];
    const child = pty.spawn(file, argv, {
      env: { PATH: process.env['PATH'] ?? '', TZ: 'UTC', STDOUT_FILE: out, ...env },
      cols: 250,
    });
    let screen = '';
    child.onData((data) => {
      screen += data;
    });
    const killer = setTimeout(() => child.kill(), KILL_AFTER_MS);
    const code = await new Promise<number>((resolve) => child.onExit(({ exitCode }) => resolve(exitCode)));
    clearTimeout(killer);
    return { code, screen, stdout: stdoutToFile ? await readFile(out, 'utf8') : undefined };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
