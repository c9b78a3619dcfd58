/**
 * The package as an operator installs it, for start-up figures beside the checkout's: packed
 * (`prepack` builds dist/), installed from the npm cache into a temporary folder, and run with a
 * temporary XDG_CACHE_HOME for its compiled-code cache.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = promisify(execFile);

/** The installed command's shim, the environment to run it with, and the clean-up. */
export interface InstalledPackage {
  readonly bin: string;
  readonly env: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

/** Packs this checkout and installs the tarball into an empty temporary folder, offline. */
export async function installPackage(): Promise<InstalledPackage> {
  const dir = await mkdtemp(join(tmpdir(), 'nomad-restart-bench-'));
  await run('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: ROOT, maxBuffer: 1 << 24 });
  const tarball = (await readdir(dir)).find((name) => name.endsWith('.tgz'));
  if (tarball === undefined) throw new Error(`npm pack left no tarball in ${dir}`);
  await writeFile(join(dir, 'package.json'), '{"private":true}\n');
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(dir, tarball)], { cwd: dir });
  return {
    bin: join(dir, 'node_modules', 'nomad-restart', 'bin', 'nomad-restart.js'),
    env: { XDG_CACHE_HOME: join(dir, 'cache') },
    close: () => rm(dir, { recursive: true, force: true }),
  };
}
