/**
 * The command's terminal: where lines go, whether questions can be asked, and how one line
 * is read for an answer (Nomad's `command/job_restart.go` `askQuestion`: prompt, one space, one
 * trimmed line; EOF and interrupts are read errors whose default the caller applies).
 */
import { createRequire } from 'node:module';
import type * as Readline from 'node:readline';
import type { OutputLine } from '../../restart/format';

/**
 * A line read for a question, or why none could be read. `withdrawn`: the question was settled
 * elsewhere (a run on AWS answered in chat) and the read was called off.
 */
export type ReadResult =
  | { kind: 'line'; text: string }
  | { kind: 'eof' }
  | { kind: 'interrupted' }
  | { kind: 'withdrawn' };

export interface Terminal {
  /** Both stdin and stdout are TTYs (Nomad's test for `ask`). */
  readonly interactive: boolean;
  write(line: OutputLine): void;
  /**
   * Writes a line for a person watching, on stderr, only when stderr is a TTY: a script or a
   * pipe reading the command's output sees the same bytes as from Nomad's own command.
   */
  notice(text: string): void;
  /**
   * Prints `prompt` (which ends with its one space) and reads one line. When `withdrawn` aborts
   * first, the prompt's line is ended and the read resolves `withdrawn`; a line typed after that
   * and before the next read is dropped, since it answered the question that was called off.
   */
  read(prompt: string, withdrawn?: AbortSignal): Promise<ReadResult>;
  /**
   * Whether a read is in progress (SIGINT then belongs to the question, Nomad's
   * `command/job_restart.go` `askQuestion`).
   */
  readonly reading: boolean;
  /** Ends a pending read as interrupted (SIGINT while a question is open). */
  interruptRead(): void;
  close(): void;
}

export interface TerminalStreams {
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/** A terminal over the process's streams (or test streams). */
export function createTerminal(streams: TerminalStreams): Terminal {
  let rl: Readline.Interface | undefined;
  let ended = false;
  let pending: ((result: ReadResult) => void) | undefined;
  const settle = (result: ReadResult) => {
    const resolve = pending;
    pending = undefined;
    resolve?.(result);
  };
  // One interface for the whole run: lines typed ahead are kept for the next question.
  const lines: string[] = [];
  let afterWithdrawal = false;
  const reader = () => {
    if (rl !== undefined) return rl;
    // Required at the first question: a run that asks none (a flag error, a piped run) never
    // loads `node:readline` and the eight modules behind it, about 3 ms of CPU.
    const { createInterface } = createRequire(import.meta.url)('node:readline') as typeof Readline;
    rl = createInterface({ input: streams.stdin, terminal: false });
    rl.on('line', (line) => {
      if (pending) settle({ kind: 'line', text: line });
      else if (!afterWithdrawal) lines.push(line);
    });
    rl.on('close', () => {
      ended = true;
      settle({ kind: 'eof' });
    });
    return rl;
  };
  return {
    // stdout first: piped or scripted, Node never makes the stdin stream (a file's loads all of fs's streams).
    interactive: streams.stdout.isTTY === true && streams.stdin.isTTY === true,
    write: (line) => (line.stream === 'stdout' ? streams.stdout : streams.stderr).write(`${line.text}\n`),
    notice: (text) => {
      if (streams.stderr.isTTY === true) streams.stderr.write(`${text}\n`);
    },
    read: (prompt, withdrawn) => {
      if (withdrawn?.aborted) return Promise.resolve({ kind: 'withdrawn' });
      afterWithdrawal = false;
      streams.stdout.write(prompt);
      reader();
      const typed = lines.shift();
      if (typed !== undefined) return Promise.resolve({ kind: 'line', text: typed });
      if (ended) return Promise.resolve({ kind: 'eof' });
      return new Promise((resolve) => {
        pending = resolve;
        withdrawn?.addEventListener(
          'abort',
          () => {
            if (pending !== resolve) return;
            streams.stdout.write('\n');
            afterWithdrawal = true;
            settle({ kind: 'withdrawn' });
          },
          { once: true },
        );
      });
    },
    get reading() {
      return pending !== undefined;
    },
    interruptRead: () => settle({ kind: 'interrupted' }),
    close: () => rl?.close(),
  };
}

/** Whether colour codes may be written (a TTY, and no `-no-color` / `NO_COLOR`). */
export function useColor(stdoutIsTty: boolean, flags: { noColor: boolean; forceColor: boolean }): boolean {
  if (flags.noColor) return false;
  return flags.forceColor || stdoutIsTty;
}
