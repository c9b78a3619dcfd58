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

/** What a terminal shows while the command is bundled again (the first run after a source change). */
const PREPARING_COMMAND = 'Preparing the command (first run after a source change, a few seconds)...';

if (existsSync(new URL('../nomad-restart.ts', import.meta.url))) {
  const { buildBundle, freshBundle } = await import('./cli-bundle.js');
  let entry = freshBundle();
  if (entry === undefined) {
    // Said at a terminal only: piped or scripted, the output stays byte for byte Nomad's.
    if (process.stderr.isTTY) process.stderr.write(`${PREPARING_COMMAND}\n`);
    entry = await buildBundle().catch(() => undefined);
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
