/**
 * Scenario: the first run from a checkout (or the first after a source change) spends seconds
 * bundling the command and, beside it, synthesizing the state machine, before printing anything.
 * At a terminal it says so in one line on stderr, the launcher's (the engine stays silent); piped,
 * the output stays byte for byte what Nomad's command prints. Runs in a copy of the
 * checkout's sources (node_modules linked), so the repository's own bundle cache is left alone.
 */
import { execFile, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import pty from 'node-pty';
import { createTerminal } from '../../lib/cli/terminal/terminal';
import { PREPARING_STATE_MACHINE } from '../../lib/engines/local/local-definition';
import { runningE2ePerTest } from '../e2e/helpers/e2e-target';
import { withoutStatusLine } from '../e2e/helpers/run-pty';
import { simpleJob } from '../steps/helpers/harness';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PREPARING = 'Preparing the command and its state machine (first run after a change, about 4 s)...';
const TEMPLATE = join('.nomad-restart', 'synth', 'NomadRestart.template.json');
/** The lines of a run's output that say it prepares something. */
const preparingLines = (output: string) => output.split('\n').filter((line) => line.startsWith('Preparing'));
/** Bundling the command, or synthesizing the stack, on a loaded 2-core machine takes up to minutes. */
const RUN_TIMEOUT_MS = 240_000;

/** A checkout with its own (empty) `.nomad-restart/`: the sources copied, node_modules linked. */
function copyCheckout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'first-run-'));
  for (const entry of [
    'bin',
    'lib',
    'lambdas',
    'sim',
    'cdk.json',
    'tsconfig.json',
    'package.json',
    'package-lock.json',
  ]) {
    cpSync(join(ROOT, entry), join(dir, entry), { recursive: true });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** Runs `nomad-restart <args>` from `checkout` at a pseudo-terminal: everything it wrote. */
function atTerminal(checkout: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve) => {
    const child = pty.spawn(process.execPath, [join(checkout, 'bin', 'nomad-restart.js'), ...args], {
      env: { PATH: process.env['PATH'] ?? '', ...env },
      cols: 250,
    });
    let output = '';
    child.onData((data) => {
      output += data;
    });
    const killer = setTimeout(() => child.kill(), RUN_TIMEOUT_MS);
    child.onExit(() => {
      clearTimeout(killer);
      // The live status line (docs/terminal.md) is drawn on the same terminal: only the lines count.
      resolve(withoutStatusLine(output.replace(/\r/g, '')));
    });
  });
}

/**
 * Runs `nomad-restart <args>` from `checkout` with its output piped. Asynchronous: the Nomad
 * simulator it talks to answers from this process.
 */
function piped(
  checkout: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [join(checkout, 'bin', 'nomad-restart.js'), ...args],
      { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '', ...env }, timeout: RUN_TIMEOUT_MS },
      (error, stdout, stderr) => {
        const status = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        if (status === null) reject(error);
        else resolve({ status, stdout, stderr });
      },
    );
  });
}

function helpPiped(checkout: string) {
  return spawnSync(process.execPath, [join(checkout, 'bin', 'nomad-restart.js'), '-help'], {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '' },
    timeout: RUN_TIMEOUT_MS,
  });
}

describe('the first run from a checkout', () => {
  let checkouts: string[] = [];
  afterEach(() => {
    for (const dir of checkouts) rmSync(dir, { recursive: true, force: true });
    checkouts = [];
  });
  const checkout = () => {
    const dir = copyCheckout();
    checkouts.push(dir);
    return dir;
  };

  it(
    'says at a terminal that it is preparing the command, once',
    async () => {
      // Arrange
      const dir = checkout();

      // Act
      const first = await atTerminal(dir, ['-help']);
      const second = await atTerminal(dir, ['-help']);

      // Assert
      expect(first.split('\n')[0]).toBe(PREPARING);
      expect(preparingLines(first)).toEqual([PREPARING]);
      expect(first).toContain('Usage: nomad-restart');
      expect(second).not.toContain(PREPARING);
      expect(second).toContain('Usage: nomad-restart');
    },
    2 * RUN_TIMEOUT_MS,
  );

  it(
    'prepares the state machine beside the command, leaving nothing else behind',
    () => {
      // Arrange
      const dir = checkout();

      // Act: a run that never needs the state machine.
      const run = helpPiped(dir);

      // Assert: the launcher synthesized it all the same, and removed its child's script.
      expect(run.stdout).toContain('Usage: nomad-restart');
      expect(existsSync(join(dir, TEMPLATE))).toBe(true);
      expect(readdirSync(join(dir, '.nomad-restart')).sort()).toEqual(['cli', 'synth']);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'prints nothing more when its output is piped',
    () => {
      // Arrange
      const dir = checkout();

      // Act
      const first = helpPiped(dir);
      const second = helpPiped(dir);

      // Assert: the same bytes as a run with nothing to prepare.
      expect(first.stdout).toContain('Usage: nomad-restart');
      expect({ stdout: first.stdout, stderr: first.stderr }).toEqual({
        stdout: second.stdout,
        stderr: second.stderr,
      });
      expect(first.stderr).not.toContain('Preparing');
    },
    2 * RUN_TIMEOUT_MS,
  );
});

describe('the first restart from a checkout', () => {
  const h = runningE2ePerTest(simpleJob('example', 'service', 1));
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  // A restart, not a job that is not found: only a run with something to restart needs the
  // state machine.
  it(
    "says at a terminal in one line that it is preparing, before Nomad's lines",
    async () => {
      // Arrange
      dir = copyCheckout();

      // Act
      const output = await atTerminal(dir, ['-no-color', '-yes', 'example'], h.env);

      // Assert
      const lines = output.split('\n');
      expect(lines[0]).toBe(PREPARING);
      expect(preparingLines(output)).toEqual([PREPARING]);
      expect(lines).toContain('Job restarted successfully!');
    },
    2 * RUN_TIMEOUT_MS,
  );

  it(
    'says so from the engine when only the state machine is stale',
    async () => {
      // Arrange: the command and the state machine prepared, then a source of the state machine
      // alone (cdk.json) changed.
      dir = copyCheckout();
      expect(helpPiped(dir).status).toBe(0);
      const later = new Date(Date.now() + 60_000);
      utimesSync(join(dir, 'cdk.json'), later, later);

      // Act
      const output = await atTerminal(dir, ['-no-color', '-yes', 'example'], h.env);

      // Assert
      expect(preparingLines(output)).toEqual([PREPARING_STATE_MACHINE]);
      expect(output.split('\n')).toContain('Job restarted successfully!');
    },
    2 * RUN_TIMEOUT_MS,
  );

  it(
    'says nothing of it when its output is piped',
    async () => {
      // Arrange
      dir = copyCheckout();

      // Act
      const first = await piped(dir, ['-yes', 'example'], h.env);

      // Assert: it did synthesize the state machine (its template is in the checkout's cache).
      expect({ status: first.status, stderr: first.stderr }).toEqual({ status: 0, stderr: '' });
      expect(first.stdout).toContain('Job restarted successfully!');
      expect(existsSync(join(dir, TEMPLATE))).toBe(true);
      expect(`${first.stdout}${first.stderr}`).not.toContain('Preparing');
    },
    2 * RUN_TIMEOUT_MS,
  );
});

describe('Terminal.notice', () => {
  it.each([
    { tty: true, expected: 'a note\n' },
    { tty: false, expected: '' },
  ])('writes to stderr only when it is a TTY ($tty)', ({ tty, expected }) => {
    // Arrange
    const stderr = Object.assign(new PassThrough(), { isTTY: tty });
    const terminal = createTerminal({ stdin: new PassThrough(), stdout: new PassThrough(), stderr });

    // Act
    terminal.notice('a note');
    stderr.end();

    // Assert
    expect(stderr.read()?.toString() ?? '').toBe(expected);
  });
});
