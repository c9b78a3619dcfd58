/**
 * The single executables `npm run build:sea` makes (scripts/build-sea.ts): the command as one file per architecture,
 * `release/nomad-restart-linux-x64` and `release/nomad-restart-linux-arm64`, with Node inside
 * (Node's single executable applications:
 * https://nodejs.org/api/single-executable-applications.html). Each is the official Node binary
 * of the npm registry's `node-linux-<arch>` package, at the version running this build, with a
 * blob injected (postject's command) that holds the command's one-file CommonJS bundle (the same esbuild
 * options as the package's, bin/private/cli-bundle.js) and, as assets, the files the command reads
 * beside its modules (lib/sea/packaged-file.ts).
 *
 * The blob is made by a Node of the same version (Node requires it); V8's code cache of the
 * bundle is put in only when the executable's own Node can make it here, i.e. for this machine's
 * architecture: code made on x64 does not load on arm64 (the Node docs' note on cross-platform
 * builds). No startup snapshot: measured, the code cache alone brings a run under the package's
 * start-up (docs/benchmarks.md), and a snapshot would run every module at build time.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type BuildOptions, build } from 'esbuild';
// @ts-expect-error: a plain JavaScript module of the shim, without type declarations
import { commandBundleOptions } from '../bin/private/cli-bundle.js';
import { loadLocalDefinition, SHIPPED_DEFINITION_FILE } from '../lib/engines/local/local-definition';
import { SEA_ARCHES, seaFileName } from '../lib/sea/architecture';
import { SEA_ROOT, SEA_TARGET_ASSET } from '../lib/sea/packaged-file';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Downloaded Node binaries, the bundle and the blobs: rebuilt, never shipped. */
const WORK_DIR = join(ROOT, '.nomad-restart', 'sea');
const ENTRY = join('bin', 'private', 'sea-main.ts');
const SCENARIOS_DIR = join('sim', 'scenarios');
/** The fuse Node's binary looks for to know a blob was injected (the Node docs' postject step). */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const POSTJECT = join(ROOT, 'node_modules', 'postject', 'dist', 'cli.js');

/** In the executable, `import.meta.url` is the source file's place below SEA_ROOT. */
const seaFileUrl = (path: string): string =>
  JSON.stringify(pathToFileURL(join(SEA_ROOT, relative(ROOT, path))).href);

/**
 * The official Node binary for `arch` at `version`, from the registry's `node-linux-<arch>`
 * package (npm checks its integrity), kept in WORK_DIR. `npm pack`, not `npm install`: the
 * package declares its cpu, and npm would refuse to install arm64's on x64.
 */
export function registryNode(arch: string, version: string = process.versions.node): string {
  const dir = join(WORK_DIR, `node-v${version}-linux-${arch}`);
  const node = join(dir, 'package', 'bin', 'node');
  if (existsSync(node)) return node;
  mkdirSync(WORK_DIR, { recursive: true });
  const scratch = mkdtempSync(`${dir}.`);
  try {
    execFileSync('npm', ['pack', '--silent', `node-linux-${arch}@${version}`], {
      cwd: scratch,
      stdio: 'ignore',
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

/** The command's one-file CommonJS bundle, its entry the architecture check (bin/private/sea-main.ts). */
async function bundleForSea(outfile: string): Promise<void> {
  const options = commandBundleOptions({ projectDir: ROOT, outfile, moduleUrl: seaFileUrl }) as BuildOptions;
  await build({ ...options, entryPoints: [join(ROOT, ENTRY)] });
}

/** The assets every executable carries, by key (their path below SEA_ROOT); the definition written into `dir`. */
async function seaAssets(dir: string): Promise<Record<string, string>> {
  const definition = join(dir, 'local-definition.json');
  // The checkout's own synth (cached while no source changed): what `npm run build` ships.
  const { stateMachine } = await loadLocalDefinition(ROOT);
  writeFileSync(definition, `${JSON.stringify(stateMachine)}\n`);
  const assets: Record<string, string> = { [SHIPPED_DEFINITION_FILE]: definition };
  for (const name of readdirSync(join(ROOT, SCENARIOS_DIR)).filter((file) => file.endsWith('.json'))) {
    assets[join(SCENARIOS_DIR, name)] = join(ROOT, SCENARIOS_DIR, name);
  }
  return assets;
}

/** What every executable carries, whatever its architecture: the bundle and the assets. */
export interface SeaInputs {
  readonly bundle: string;
  readonly assets: Readonly<Record<string, string>>;
}

/** Bundles the command and gathers its assets into `workDir` (WORK_DIR unless given). */
export async function prepareSeaInputs(workDir: string = WORK_DIR): Promise<SeaInputs> {
  mkdirSync(workDir, { recursive: true });
  const bundle = join(workDir, 'nomad-restart.cjs');
  const [assets] = await Promise.all([seaAssets(workDir), bundleForSea(bundle)]);
  return { bundle, assets };
}

/** What one executable is made of. */
export interface ExecutableParts extends SeaInputs {
  /** The Node binary the blob goes into (copied, never changed). */
  readonly node: string;
  /** The Node that makes the blob: the same version as `node`; `node` itself to put in the code cache. */
  readonly blobMaker: string;
  /** The architecture recorded in the executable, which its first check compares with Node's. */
  readonly arch: string;
  readonly out: string;
}

/** Makes the blob with `blobMaker` and injects it into a copy of `node` at `out`. */
export function makeExecutable(parts: ExecutableParts): void {
  mkdirSync(WORK_DIR, { recursive: true });
  const work = mkdtempSync(join(WORK_DIR, `${parts.arch}-`));
  try {
    const targetFile = join(work, 'target-arch');
    writeFileSync(targetFile, parts.arch);
    const blob = join(work, 'sea.blob');
    const config = join(work, 'sea-config.json');
    writeFileSync(
      config,
      JSON.stringify({
        main: parts.bundle,
        output: blob,
        disableExperimentalSEAWarning: true,
        useSnapshot: false,
        useCodeCache: parts.blobMaker === parts.node,
        assets: { ...parts.assets, [SEA_TARGET_ASSET]: targetFile },
      }),
    );
    // Its one line of success is noise; a failure's message carries what it printed.
    execFileSync(parts.blobMaker, ['--experimental-sea-config', config], { stdio: 'pipe' });
    mkdirSync(dirname(parts.out), { recursive: true });
    const scratch = `${parts.out}.${process.pid}`;
    copyFileSync(parts.node, scratch);
    chmodSync(scratch, 0o755);
    // postject's own command, not its API: what it prints (LIEF's warnings about the notes
    // sections of Node's binary, harmless per the Node docs) stays out of the build's output
    // unless it fails.
    execFileSync(process.execPath, [POSTJECT, scratch, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SEA_FUSE], {
      stdio: 'pipe',
    });
    renameSync(scratch, parts.out);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Builds `nomad-restart-linux-<arch>` into `outDir` for each of `arches`.
 * @returns the executables' paths
 */
export async function buildSingleExecutables(
  outDir: string,
  arches: readonly string[] = SEA_ARCHES,
): Promise<string[]> {
  const inputs = await prepareSeaInputs();
  const outs: string[] = [];
  for (const arch of arches) {
    const node = registryNode(arch);
    const out = join(outDir, seaFileName(arch));
    // Only a Node that runs here can make its own blob (and code cache); for another
    // architecture, this Node of the same version makes one without code cache.
    const blobMaker = arch === process.arch ? node : process.execPath;
    makeExecutable({ ...inputs, node, blobMaker, arch, out });
    outs.push(out);
  }
  return outs;
}
