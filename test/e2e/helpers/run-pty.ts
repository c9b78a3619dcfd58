/**
 * Runs the real command in a pseudo-terminal (node-pty), so it sees a TTY and asks its
 * questions; each prompt ending `[<options>] ` is answered with the next scripted reply.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pty from 'node-pty';
import { normalise } from './run-cli';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'bin', 'nomad-restart.js');
/** A question's options followed by the one space Nomad prints after it. */
const PROMPT_AT_END = /\[[^\]\n]+\] $/;
const PROMPTS = /\[[^\]\n]+\] /g;
/** A scripted run that outlives this is killed, so a stuck prompt fails the test instead of hanging it. */
const KILL_AFTER_MS = 60_000;

/** The status line's erase (`CSI 2 K`), once `\r` is taken out of a terminal's bytes. */
const ERASE = '\x1b[2K';

/**
 * A terminal's text (`\r` taken out) without the status line (lib/cli/terminal/status-line.ts):
 * its drawings (an erase, a text without a line end, and the erase that takes it away again), and
 * the erase before each other line, so the lines compare as Nomad prints them.
 */
export function withoutStatusLine(text: string): string {
  const [before = '', ...afterErases] = text.split(ERASE);
  const kept = afterErases.filter((part, i) => part.includes('\n') || i === afterErases.length - 1);
  return before + kept.join('');
}

/** Subcommands are words before any flag: `-no-color` goes after one. */
const SUBCOMMANDS = new Set(['fleet', 'attach']);

function spawnInPty(args: readonly string[], env: NodeJS.ProcessEnv) {
  const [first = '', ...rest] = args;
  const argv = SUBCOMMANDS.has(first) ? [first, '-no-color', ...rest] : ['-no-color', ...args];
  return pty.spawn(process.execPath, [BIN, ...argv], {
    env: { PATH: process.env['PATH'] ?? '', TZ: 'UTC', ...env },
    cols: 250,
  });
}

export function runInPty(args: readonly string[], env: NodeJS.ProcessEnv, replies: readonly string[]) {
  return new Promise<{ code: number; output: string }>((resolve) => {
    const pending = [...replies];
    const child = spawnInPty(args, env);
    let output = '';
    let answered = 0;
    child.onData((data) => {
      output += data;
      // Answer each prompt once, when it is the last thing on screen.
      const prompts = output.match(PROMPTS)?.length ?? 0;
      if (PROMPT_AT_END.test(output) && prompts > answered && pending.length > 0) {
        answered = prompts;
        child.write(`${pending.shift()}\r`);
      }
    });
    const killer = setTimeout(() => child.kill(), KILL_AFTER_MS);
    child.onExit(({ exitCode }) => {
      clearTimeout(killer);
      resolve({ code: exitCode, output: normalise(withoutStatusLine(output.replace(/\r/g, ''))) });
    });
  });
}

/** Nomad's interrupt question, with the space after it. */
export const INTERRUPT_PROMPT = 'Are you sure you want to stop the restart process? [y/N] ';

/**
 * Runs the command in a pty, sends it SIGINT once `afterText` is on screen (say, the batch wait's
 * line, so one batch is done), and answers the interrupt question with `answer`.
 */
export function runInterrupted(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  afterText: string,
  answer: string,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawnInPty(args, env);
    let output = '';
    let interrupted = false;
    let answered = false;
    child.onData((data) => {
      output += data;
      if (!interrupted && output.includes(afterText)) {
        interrupted = true;
        child.kill('SIGINT');
      }
      if (!answered && output.endsWith(INTERRUPT_PROMPT)) {
        answered = true;
        child.write(`${answer}\r`);
      }
    });
    const killer = setTimeout(() => child.kill(), KILL_AFTER_MS);
    child.onExit(({ exitCode }) => {
      clearTimeout(killer);
      resolve({ code: exitCode, output: normalise(withoutStatusLine(output.replace(/\r/g, ''))) });
    });
  });
}

/**
 * Starts the command at a pseudo-terminal without answering anything, for tests that time its
 * lines: `lineAt` resolves with the arrival time (ms) of the first line equal to `line` after
 * normalising, or `undefined` after `timeoutMs`.
 */
export function startInPty(args: readonly string[], env: NodeJS.ProcessEnv) {
  const child = spawnInPty(args, env);
  const arrived: { line: string; at: number }[] = [];
  const listeners = new Set<() => void>();
  let output = '';
  let partial = '';
  let running = true;
  child.onData((data) => {
    output += data;
    const parts = (partial + data.replace(/\r/g, '')).split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) arrived.push({ line: normalise(withoutStatusLine(line)), at: Date.now() });
    for (const listener of listeners) listener();
  });
  const exited = new Promise<{ code: number; output: string }>((resolve) =>
    child.onExit(({ exitCode }) => {
      running = false;
      resolve({ code: exitCode, output: normalise(withoutStatusLine(output.replace(/\r/g, ''))) });
    }),
  );
  const lineAt = (line: string, timeoutMs: number) =>
    new Promise<number | undefined>((resolve) => {
      const check = () => {
        const found = arrived.find((a) => a.line === line);
        if (found !== undefined) done(found.at);
      };
      const timer = setTimeout(() => done(undefined), timeoutMs);
      const done = (at: number | undefined) => {
        clearTimeout(timer);
        listeners.delete(check);
        resolve(at);
      };
      listeners.add(check);
      check();
    });
  return {
    exited,
    lineAt,
    /** Ends the command if it is still running. */
    stop: () => {
      if (running) child.kill();
    },
  };
}

/**
 * Runs the command in a pty, sends it SIGINT once `afterText` is on screen, then answers each
 * prompt that ends the screen with the next of `replies` (the interrupt question first), and
 * tells `onReply` the time of each reply.
 * @param thinkMs how long the operator takes before sending a reply (say, so a run reaches its
 *   safe point while its question is open)
 */
export function runInterruptedAnswering(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  afterText: string,
  replies: readonly string[],
  onReply: (reply: string) => void = () => undefined,
  thinkMs: (reply: string) => number = () => 0,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawnInPty(args, env);
    const pending = [...replies];
    let output = '';
    let interrupted = false;
    let answered = 0;
    child.onData((data) => {
      output += data;
      if (!interrupted && output.includes(afterText)) {
        interrupted = true;
        child.kill('SIGINT');
        return;
      }
      const prompts = output.match(PROMPTS)?.length ?? 0;
      if (interrupted && PROMPT_AT_END.test(output) && prompts > answered && pending.length > 0) {
        answered = prompts;
        const reply = pending.shift() ?? '';
        setTimeout(() => {
          onReply(reply);
          child.write(`${reply}\r`);
        }, thinkMs(reply));
      }
    });
    const killer = setTimeout(() => child.kill(), KILL_AFTER_MS);
    child.onExit(({ exitCode }) => {
      clearTimeout(killer);
      resolve({ code: exitCode, output: normalise(withoutStatusLine(output.replace(/\r/g, ''))) });
    });
  });
}
