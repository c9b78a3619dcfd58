#!/usr/bin/env node
// `npx nomad-restart`: checks the Node version, then starts the command (private/start.cjs).
// Only syntax any Node parses comes before the check, so an old Node prints one line naming the
// version needed (no top-level await, no `node:` imports here). The one ES module of the start:
// what it loads is CommonJS (see private/start.cjs).
// biome-ignore lint/style/useNodejsImportProtocol: Node before 14.18 has no `node:` imports, and this check is for old Nodes
import { createRequire } from 'module';

const require = createRequire(import.meta.url);
const { engines } = require('../package.json');
const { unsupportedNodeMessage } = require('./private/node-version.cjs');
const unsupported = unsupportedNodeMessage(engines.node, process.version);
if (unsupported === undefined) {
  require('./private/start.cjs');
} else {
  process.stderr.write(`${unsupported}\n`);
  process.exitCode = 1;
}
