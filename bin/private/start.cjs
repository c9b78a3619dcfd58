/**
 * Starts the command. Installed from the package, it runs the bundle `npm run build` made
 * (dist/cli/), keeping V8's compiled code in the user's cache folder (user-cache.cjs); in this
 * repository, launch.js builds and runs the checkout's own bundle. The package ships no TypeScript,
 * so the source beside the shim tells the two apart.
 *
 * CommonJS, as everything the installed command loads before its bundle (node-version.cjs,
 * run-bundle.cjs, user-cache.cjs): the same start as ES modules cost about 5 ms more CPU on every
 * run (docs/benchmarks.md, "Start-up").
 */
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

if (existsSync(join(__dirname, '..', 'nomad-restart.ts'))) {
  // An ES module: it awaits esbuild, the state machine's child and tsx.
  import('./launch.js');
} else {
  const { runBundle } = require('./run-bundle.cjs');
  const { userCacheDir } = require('./user-cache.cjs');
  const dist = join(__dirname, '..', '..', 'dist', 'cli');
  const bundleId = readFileSync(join(dist, 'bundle-id'), 'utf8').trim();
  runBundle(join(dist, 'nomad-restart.cjs'), { cacheDir: userCacheDir(), bundleId });
}
