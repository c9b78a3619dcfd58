#!/usr/bin/env node
// `npx nomad-restart`: checks the Node version, then starts the command (private/launch.js).
// Only syntax any Node parses comes before the check, so an old Node prints one line naming the
// version needed (no top-level await, no `node:` imports here).
// biome-ignore lint/style/useNodejsImportProtocol: Node before 14.18 has no `node:` imports, and this check is for old Nodes
import { readFileSync } from 'fs';
import { unsupportedNodeMessage } from './private/node-version.js';

const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const unsupported = unsupportedNodeMessage(engines.node, process.version);
if (unsupported === undefined) {
  import('./private/launch.js');
} else {
  process.stderr.write(`${unsupported}\n`);
  process.exitCode = 1;
}
