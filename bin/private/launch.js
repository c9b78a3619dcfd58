/**
 * Starts the command. Installed from the package, it runs the bundle `npm run build` made
 * (dist/cli/), keeping V8's compiled code in the user's cache folder (user-cache.js). In this
 * repository it runs bin/nomad-restart.ts from its cached esbuild bundle (built on the first run
 * and after a source change; see cli-bundle.js) with V8's compiled code kept beside it
 * (run-bundle.js), or through tsx's loader when no bundle can be built (a read-only checkout, no
 * esbuild). The package ships no TypeScript, so the source beside the shim tells the two apart.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { runBundle } from './run-bundle.js';

// Required, not imported: see run-bundle.js on `node:fs` in an ES module.
const { existsSync, readFileSync } = createRequire(import.meta.url)('node:fs');

/**
 * What a terminal shows while the command is bundled again and its state machine synthesized
 * beside it (the first run after a source change): the one line of a first run. About 4 s on
 * the 2-core machine (docs/benchmarks.md, "Build and first run").
 */
const PREPARING = 'Preparing the command and its state machine (first run after a change, about 4 s)...';
/** Read by the engine (lib/engines/local/launcher-notice.ts), which then says nothing more. */
const LAUNCHER_NOTICE_KEY = Symbol.for('nomad-restart.launcher-said-preparing');

if (existsSync(new URL('../nomad-restart.ts', import.meta.url))) {
  const { buildBundle, freshBundle } = await import('./cli-bundle.js');
  let entry = freshBundle();
  if (entry === undefined) {
    // Said at a terminal only: piped or scripted, the output stays byte for byte Nomad's.
    if (process.stderr.isTTY) process.stderr.write(`${PREPARING}\n`);
    globalThis[LAUNCHER_NOTICE_KEY] = true;
    // A source the bundle reads changed, so the state machine's (lib/) most likely did too.
    const { prepareStateMachine } = await import('./state-machine-child.js');
    [entry] = await Promise.all([buildBundle().catch(() => undefined), prepareStateMachine()]);
  }
  if (entry === undefined) {
    const { register } = await import('tsx/esm/api');
    register();
    await import('../nomad-restart.ts');
  } else {
    runBundle(entry);
  }
} else {
  const { userCacheDir } = await import('./user-cache.js');
  const bundle = fileURLToPath(new URL('../../dist/cli/nomad-restart.cjs', import.meta.url));
  const bundleId = readFileSync(new URL('../../dist/cli/bundle-id', import.meta.url), 'utf8').trim();
  runBundle(bundle, { cacheDir: userCacheDir(), bundleId });
}
