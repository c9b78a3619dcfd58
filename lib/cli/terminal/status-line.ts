/**
 * A live status line under Nomad's lines, at a terminal only (stderr is a TTY): redrawn in place
 * (carriage return, then ECMA-48 "erase in line"), and erased before any other line is written,
 * so every line Nomad's command prints stays whole and stdout carries exactly the same bytes as
 * without it. It is never drawn while a question is read (the prompt is on that line).
 */
import type { Terminal, TerminalStreams } from './terminal';

/** Back to the start of the line, then clear the whole line (`CSI 2 K`). */
export const ERASE_LINE = '\r\x1b[2K';

/** How often the line is redrawn, so its clocks (waiting 12s, ETA) move. */
const REDRAW_MS = 1000;

/** Width assumed when the terminal does not say (a line wider than the screen could not be erased). */
const DEFAULT_COLUMNS = 80;

/** A status line being drawn, and the terminal whose lines it keeps out of the way of. */
export interface StatusLine {
  /** `terminal`, with the status line erased before each line and redrawn after it. */
  readonly terminal: Terminal;
  /** Redraws now (something changed). */
  redraw(): void;
  /** Erases the line and stops redrawing. */
  stop(): void;
}

/** Where the status line would go: stderr, and the environment that says what the terminal is. */
export interface StatusLineOutput {
  readonly stderr: TerminalStreams['stderr'] & { columns?: number };
  readonly env: NodeJS.ProcessEnv;
}

/**
 * Whether a status line can be drawn: stderr is a terminal (a pipe or a file gets nothing), and
 * not one that says it cannot move its cursor (`TERM=dumb`, as Emacs' shell buffers set it).
 */
export function canDrawStatusLine(out: StatusLineOutput): boolean {
  return out.stderr.isTTY === true && out.env['TERM'] !== 'dumb';
}

/**
 * Draws `text()` on stderr under `terminal`'s lines, or returns `undefined` when it cannot be
 * drawn ({@link canDrawStatusLine}). `text` returns `undefined` for nothing to show.
 */
export function startStatusLine(
  terminal: Terminal,
  out: StatusLineOutput,
  text: () => string | undefined,
): StatusLine | undefined {
  if (!canDrawStatusLine(out)) return undefined;
  const { stderr } = out;
  let shown = false;
  let stopped = false;
  const erase = () => {
    if (shown) stderr.write(ERASE_LINE);
    shown = false;
  };
  const redraw = () => {
    if (stopped || terminal.reading) return;
    const line = text();
    if (line === undefined) return erase();
    // One column short of the width: a line that wraps leaves its first row behind when erased.
    const width = Math.max(1, (stderr.columns ?? DEFAULT_COLUMNS) - 1);
    stderr.write(`${ERASE_LINE}${line.slice(0, width)}`);
    shown = true;
  };
  const timer = setInterval(redraw, REDRAW_MS);
  // The line must never keep the command running after its run has ended.
  timer.unref();
  const wrapped: Terminal = {
    get interactive() {
      return terminal.interactive;
    },
    get reading() {
      return terminal.reading;
    },
    write: (line) => {
      erase();
      terminal.write(line);
      redraw();
    },
    notice: (notice) => {
      erase();
      terminal.notice(notice);
      redraw();
    },
    read: async (prompt, withdrawn) => {
      erase();
      const result = await terminal.read(prompt, withdrawn);
      redraw();
      return result;
    },
    interruptRead: () => terminal.interruptRead(),
    close: () => terminal.close(),
  };
  return {
    terminal: wrapped,
    redraw,
    stop: () => {
      stopped = true;
      clearInterval(timer);
      erase();
    },
  };
}
