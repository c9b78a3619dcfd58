/**
 * Scenario: a job that is not found, run by the command's bundle in a child process against the
 * target (the simulator, or the agent at `NOMAD_E2E_ADDR`), loads no `node:crypto`: the ids and
 * digests made before its first request do without it, and every other module of the path
 * requires it at first call (bin/private/cli-bundle.js). It still loads `node:http`, so the run
 * did reach the request. The built-ins come from `process.moduleLoadList` at the child's exit.
 * Nor does it make `process.stdout`, which it never writes to (3.5 to 5.7 ms of CPU,
 * docs/benchmarks.md): a preload wraps Node's lazy getter and tells, at exit, who first read it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error: a plain JavaScript module of the shim, without type declarations
import { commandBundleOptions } from '../../bin/private/cli-bundle.js';
import { openE2e } from '../e2e/helpers/e2e-target';
import { collectText } from '../fixtures/stream-text';

/**
 * Written to stderr at exit: the stack that first read `process.stdout` (`none` when nothing
 * did), then the public built-ins the process loaded.
 */
const BUILTINS_AT_EXIT = `const made = Object.getOwnPropertyDescriptor(process, 'stdout');
let firstRead = 'none';
Object.defineProperty(process, 'stdout', {
  ...made,
  get() {
    if (firstRead === 'none') firstRead = new Error('process.stdout read').stack.replaceAll('\\n', ' | ');
    return made.get.call(process);
  },
});
process.on('exit', () => {
  process.stderr.write('stdout ' + firstRead + '\\n');
  const builtins = process.moduleLoadList.filter((m) => /^NativeModule [a-z_]+$/.test(m)).map((m) => m.slice(13));
  process.stderr.write('builtins ' + JSON.stringify(builtins) + '\\n');
});`;

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'not-found-builtins-'));
  const { build } = await import('esbuild');
  const root = join(import.meta.dirname, '..', '..');
  await build(commandBundleOptions({ projectDir: root, outfile: join(dir, 'nomad-restart.cjs') }));
  writeFileSync(join(dir, 'builtins-at-exit.cjs'), BUILTINS_AT_EXIT);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the bundle (asynchronously: the simulator answers from this process). */
function runBundle(args: readonly string[], env: Readonly<Record<string, string>>) {
  return new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--require', join(dir, 'builtins-at-exit.cjs'), join(dir, 'nomad-restart.cjs'), ...args],
      {
        env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    const stderr = collectText(child.stderr);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr: stderr() }));
  });
}

describe('the built-ins of a job not found', () => {
  it('loads node:http for the request, never node:crypto, and never makes process.stdout', async () => {
    // Arrange
    const target = await openE2e();
    try {
      // Act
      const run = await runBundle(['-yes', 'no_such_job'], target.env);

      // Assert
      const [message, stdout, loaded] = run.stderr.split(/^(?:stdout|builtins) /m);
      expect(message).toBe('No job(s) with prefix or ID "no_such_job" found\n');
      expect(stdout).toBe('none\n');
      expect(run.code).toBe(1);
      const builtins = JSON.parse(loaded ?? '[]') as string[];
      expect(builtins).toContain('http');
      expect(builtins).not.toContain('crypto');
    } finally {
      await target.close();
    }
  }, 60_000);
});
