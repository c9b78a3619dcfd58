/**
 * Setup of jest's `unit` project (jest.config.js): a unit test starts no server and no
 * subprocess. One that does fails at once with what to do: such a file is an integration test,
 * named `*.test.ts`. The real functions come back after the file, since a jest worker runs files
 * of both projects.
 */
import { createRequire } from 'node:module';
import net from 'node:net';
import { afterAll } from '@jest/globals';

// Patched through require, before the test file imports it: jest builds an ES module's view of a
// builtin from its exports when first imported, so a file's `import { spawn }` sees the patch.
const childProcess = createRequire(import.meta.url)(
  'node:child_process',
) as typeof import('node:child_process');

const SUBPROCESS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;

function refuse(what: string): never {
  throw new Error(
    `${what} in a unit test (*.unit.test.ts): name the file *.test.ts, an integration test (jest.config.js)`,
  );
}

const listen = net.Server.prototype.listen;
const subprocess = Object.fromEntries(SUBPROCESS.map((name) => [name, childProcess[name]]));
net.Server.prototype.listen = () => refuse('A server');
for (const name of SUBPROCESS)
  Object.assign(childProcess, { [name]: () => refuse(`A subprocess (${name})`) });

afterAll(() => {
  net.Server.prototype.listen = listen;
  Object.assign(childProcess, subprocess);
});
