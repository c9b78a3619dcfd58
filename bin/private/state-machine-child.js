/**
 * On a first run from a checkout (the command's bundle stale), the launcher prepares the state
 * machine beside the command's bundling rather than after it: esbuild's bundling of the command
 * and the CDK app's synth are each about one core's work for 2 to 3 s, so with two cores free the
 * first run waits for the longer of the two, not their sum (on a saturated machine its time
 * follows its CPU instead: docs/benchmarks.md, "Build and first run"). The child runs bin/private/prepare-state-machine.ts,
 * bundled by esbuild as the command is, with its npm packages left in node_modules.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { moduleUrls, sourceFileUrl } from '../../lib/bundling/module-urls.js';

// Required, not imported: see run-bundle.cjs on `node:fs` in an ES module.
const { mkdirSync, mkdtempSync, rmSync } = createRequire(import.meta.url)('node:fs');

const PROJECT_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ENTRY = join(PROJECT_DIR, 'bin', 'private', 'prepare-state-machine.ts');

/** Runs `script` with this Node; resolves when it ends, whatever its exit code. */
const runToEnd = (script) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [script], { cwd: PROJECT_DIR, stdio: 'ignore' });
    child.on('error', resolve);
    child.on('close', resolve);
  });

/**
 * Synthesizes the local state machine into its cache when a source changed, in a child process.
 * Never rejects: what failed here fails again, with its message, when the command needs the state
 * machine (lib/engines/local/local-definition.ts synthesizes whatever the cache lacks).
 */
export async function prepareStateMachine() {
  const parent = join(PROJECT_DIR, '.nomad-restart');
  mkdirSync(parent, { recursive: true });
  // Its own folder: concurrent first runs never share a half-written script.
  const dir = mkdtempSync(join(parent, 'prepare-'));
  try {
    const { build } = await import('esbuild');
    const outfile = join(dir, 'prepare.cjs');
    await build({
      entryPoints: [ENTRY],
      absWorkingDir: PROJECT_DIR,
      outfile,
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node22',
      packages: 'external',
      logLevel: 'silent',
      plugins: [moduleUrls(sourceFileUrl)],
    });
    await runToEnd(outfile);
  } catch {
    // Reported by the command itself when it needs the state machine (see above).
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
