/**
 * Scenario: the command's start as the package installs it: only the shim files package.json's
 * `files` ships, beside a built bundle (`dist/cli/nomad-restart.cjs` and its `bundle-id`), no
 * TypeScript. The shim runs the bundle with the operator's arguments and exit code, keeps V8's code
 * in the user's cache folder under the bundle's id, and loads everything after its entry as
 * CommonJS (bin/private/start.cjs says why).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  files: string[];
  engines: { node: string };
};

/** A bundle that says what it was given and ends as the command does, with an exit code. */
const BUNDLE = `process.stdout.write(JSON.stringify({ args: process.argv.slice(2) }) + '\\n');
process.exitCode = 3;`;

/** At exit, the shim's files Node loaded as CommonJS (its module cache holds no ES module). */
const SHIM_FILES_AT_EXIT = `
process.on('exit', () => {
  const loaded = require('node:module')._cache;
  process.stderr.write(JSON.stringify({ commonJs: Object.keys(loaded).filter((f) => f.includes('/bin/')) }));
});`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'installed-start-'));
  for (const file of PACKAGE.files.filter((f) => f.startsWith('bin/'))) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(ROOT, file), join(dir, file));
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', engines: PACKAGE.engines }));
  mkdirSync(join(dir, 'dist', 'cli'), { recursive: true });
  writeFileSync(join(dir, 'dist', 'cli', 'nomad-restart.cjs'), BUNDLE + SHIM_FILES_AT_EXIT);
  writeFileSync(join(dir, 'dist', 'cli', 'bundle-id'), 'nomad-restart-0123456789abcdef\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function start(...args: string[]) {
  return spawnSync(process.execPath, [join(dir, 'bin', 'nomad-restart.js'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '', XDG_CACHE_HOME: join(dir, 'cache') },
  });
}

describe('the installed start', () => {
  it("runs the package's bundle with the operator's arguments and its exit code", () => {
    // Act
    const child = start('-yes', 'web');

    // Assert
    expect(JSON.parse(child.stdout)).toEqual({ args: ['-yes', 'web'] });
    expect(child.status).toBe(3);
  });

  it("keeps V8's code in the user's cache folder, named by the bundle's id", () => {
    // Act
    start('-help');

    // Assert
    expect(readdirSync(join(dir, 'cache', 'nomad-restart'))).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^nomad-restart-0123456789abcdef\.[0-9a-f]{12}\.v8-cache$/),
      ]),
    );
  });

  it('loads the shim after its entry as CommonJS files, the ones the package ships', () => {
    // Act
    const { commonJs } = JSON.parse(start().stderr) as { commonJs: string[] };

    // Assert
    expect(commonJs.map((file) => file.slice(dir.length + 1)).sort()).toEqual([
      'bin/private/node-version.cjs',
      'bin/private/run-bundle.cjs',
      'bin/private/start.cjs',
      'bin/private/user-cache.cjs',
    ]);
  });
});
