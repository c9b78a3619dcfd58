#!/usr/bin/env node
// `npx nomad-restart`: checks the Node version, then starts the command (private/launch.js).
// Only syntax any Node parses comes before the check, so an old Node prints one line naming the
// version needed (no top-level await, no `node:` imports here).
// biome-ignore lint/style/useNodejsImportProtocol: Node before 14.18 has no `node:` imports, and this check is for old Nodes
import { createRequire } from 'module';
import { unsupportedNodeMessage } from './private/node-version.js';

// Required, not imported: see run-bundle.js on `node:fs` in an ES module.
const { engines } = createRequire(import.meta.url)('../package.json');
const unsupported = unsupportedNodeMessage(engines.node, process.version);
if (unsupported === undefined) {
  import('./private/launch.js');
} else {
  process.stderr.write(`${unsupported}\n`);
  process.exitCode = 1;
}
