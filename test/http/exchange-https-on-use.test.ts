/**
 * Scenario: `node:https` (with `node:tls` and `node:crypto` behind it, ~15 ms of CPU a start) is
 * loaded when an `https:` pool is made, never by a command that talks plain HTTP. Checked in a
 * child Node process: jest's own process has every module loaded already.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const EXCHANGE = pathToFileURL(
  join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'lib', 'http', 'exchange.ts'),
).href;

/** Whether `node:https` was loaded after importing exchange.ts and making a pool for `origin`. */
function httpsLoadedFor(origin: string): boolean {
  const script = `
    import { createPool } from ${JSON.stringify(EXCHANGE)};
    createPool(new URL(${JSON.stringify(origin)}), {}, 1000).agent.destroy();
    process.stdout.write(JSON.stringify(process.moduleLoadList.includes('NativeModule https')));`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(child.stderr);
  return JSON.parse(child.stdout) as boolean;
}

describe('createPool', () => {
  it('leaves node:https unloaded for an http: address', () => {
    // Act
    const loaded = httpsLoadedFor('http://127.0.0.1:4646');

    // Assert
    expect(loaded).toBe(false);
  });

  it('loads node:https for an https: address', () => {
    // Act
    const loaded = httpsLoadedFor('https://127.0.0.1:4646');

    // Assert
    expect(loaded).toBe(true);
  });
});
