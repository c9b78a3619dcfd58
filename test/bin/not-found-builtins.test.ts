/**
 * Scenario: a job that is not found, run by the command's bundle in a child process against the
 * target (the simulator, or the agent at `NOMAD_E2E_ADDR`), loads no `node:crypto`: the ids and
 * digests made before its first request do without it, and every other module of the path
 * requires it at first call (bin/private/cli-bundle.js). It still loads `node:http`, so the run
 * did reach the request. The built-ins come from `process.moduleLoadList` at the child's exit.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error: a plain JavaScript module of the shim, without type declarations
import { commandBundleOptions } from '../../bin/private/cli-bundle.js';
import { openE2e } from '../e2e/helpers/e2e-target';
import { collectText } from '../fixtures/stream-text';

/** Written to stderr at exit: the public built-ins the process loaded. */
const BUILTINS_AT_EXIT = `process.on('exit', () => {
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
  it('loads node:http for the request and never node:crypto', async () => {
    // Arrange
    const target = await openE2e();
    try {
      // Act
      const run = await runBundle(['-yes', 'no_such_job'], target.env);

      // Assert
      const [message, loaded] = run.stderr.split('builtins ');
      expect(message).toBe('No job(s) with prefix or ID "no_such_job" found\n');
      expect(run.code).toBe(1);
      const builtins = JSON.parse(loaded ?? '[]') as string[];
      expect(builtins).toContain('http');
      expect(builtins).not.toContain('crypto');
    } finally {
      await target.close();
    }
  }, 60_000);
});
