#!/usr/bin/env node
// `npx nomad-restart`: runs bin/nomad-restart.ts from its cached esbuild bundle (built on the
// first run and after a source change; see private/cli-bundle.js) with V8's compiled code kept
// beside it (private/run-bundle.js), or through tsx's loader when no bundle can be built (a
// read-only checkout, no esbuild).
import { buildBundle, freshBundle } from './private/cli-bundle.js';
import { runBundle } from './private/run-bundle.js';

let entry = freshBundle();
if (entry === undefined) entry = await buildBundle().catch(() => undefined);
if (entry === undefined) {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./nomad-restart.ts');
} else {
  runBundle(entry);
}
