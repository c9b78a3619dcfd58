/**
 * Starts the command in this repository (start.cjs starts the installed package's): it runs
 * bin/nomad-restart.ts from its cached esbuild bundle (built on the first run and after a source
 * change; see cli-bundle.js) with V8's compiled code kept beside it (run-bundle.cjs), or through
 * tsx's loader when no bundle can be built (a read-only checkout, no esbuild).
 */
import { createRequire } from 'node:module';

// Required, not imported: a CommonJS module (see run-bundle.cjs on ES modules at start).
const { runBundle } = createRequire(import.meta.url)('./run-bundle.cjs');

/**
 * What a terminal shows while the command is bundled again and its state machine synthesized
 * beside it (the first run after a source change): the one line of a first run. About 4 s on
 * the 2-core machine (docs/benchmarks.md, "Build and first run").
 */
const PREPARING = 'Preparing the command and its state machine (first run after a change, about 4 s)...';
/** Read by the engine (lib/engines/local/launcher-notice.ts), which then says nothing more. */
const LAUNCHER_NOTICE_KEY = Symbol.for('nomad-restart.launcher-said-preparing');

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
