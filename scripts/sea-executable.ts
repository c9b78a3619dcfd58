/**
 * The single executables `npm run build:sea` makes (scripts/build-sea.ts): the command as one file per architecture,
 * `release/nomad-restart-linux-x64` and `release/nomad-restart-linux-arm64`, with Node inside
 * (Node's single executable applications:
 * https://nodejs.org/api/single-executable-applications.html). Each is the official Node binary
 * of the npm registry's `node-linux-<arch>` package, at the version running this build, with a
 * blob injected (postject's command). The blob's main script is the small entry
 * (bin/private/sea-main.ts: the architecture check); its assets are the command's one-file
 * CommonJS bundle (the package's esbuild options, bin/private/cli-bundle.js), V8's code for it,
 * and the files the command reads beside its modules (lib/sea/packaged-file.ts).
 *
 * The blob is made by a Node of the same version (Node requires it). V8's code for the bundle is
 * made by a run of the finished executable (lib/sea/embedded-command.ts), so only for this
 * machine's architecture: code made on x64 does not load on arm64 (the Node docs' note on
 * cross-platform builds). Neither `useCodeCache` (the entry is a few lines; the bundle is an asset)
 * nor `useSnapshot`: tried, a snapshot of the command's modules saved 12% of a job-not-found run's
 * CPU but left its HTTP requests hanging for a minute and broke `demo` (node:console), and Node
 * warns that node:sea and node:readline are not verified in snapshots.
 */
import { execFileSync, spawn } from 'node:child_process';
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
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type BuildOptions, build } from 'esbuild';
// @ts-expect-error: a plain JavaScript module of the shim, without type declarations
import { commandBundleOptions } from '../bin/private/cli-bundle.js';
import { loadLocalDefinition, SHIPPED_DEFINITION_FILE } from '../lib/engines/local/local-definition';
import { SEA_ARCHES, seaFileName } from '../lib/sea/architecture';
import { CODE_CACHE_ASSET, CODE_CACHE_OUT_ENV, COMMAND_ASSET } from '../lib/sea/embedded-command';
import { SEA_ROOT, SEA_TARGET_ASSET } from '../lib/sea/packaged-file';
import { registryNode } from './registry-node';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The bundles and the blobs (beside registry-node.ts's downloads): rebuilt, never shipped. */
const WORK_DIR = join(ROOT, '.nomad-restart', 'sea');
const ENTRY = join('bin', 'private', 'sea-main.ts');
const SCENARIOS_DIR = join('sim', 'scenarios');
/** The fuse Node's binary looks for to know a blob was injected (the Node docs' postject step). */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const POSTJECT = join(ROOT, 'node_modules', 'postject', 'dist', 'cli.js');

/** In the executable, `import.meta.url` is the source file's place below SEA_ROOT. */
const seaFileUrl = (path: string): string =>
  JSON.stringify(pathToFileURL(join(SEA_ROOT, relative(ROOT, path))).href);

/** The entry and the command's bundle, with `import.meta.url` below SEA_ROOT in both. */
async function bundleForSea(dir: string): Promise<{ main: string; command: string }> {
  const main = join(dir, 'sea-main.cjs');
  const command = join(dir, COMMAND_ASSET);
  const options = (outfile: string) =>
    commandBundleOptions({ projectDir: ROOT, outfile, moduleUrl: seaFileUrl }) as BuildOptions;
  await Promise.all([build({ ...options(main), entryPoints: [join(ROOT, ENTRY)] }), build(options(command))]);
  return { main, command };
}

/** The files the command reads, by asset key (their path below SEA_ROOT); the definition written into `dir`. */
async function packagedFiles(dir: string): Promise<Record<string, string>> {
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

/** What every executable carries, whatever its architecture. */
export interface SeaInputs {
  /** The blob's main script: the entry's bundle. */
  readonly main: string;
  /** The assets but the target and the code cache, by key: the command's bundle and its files. */
  readonly assets: Readonly<Record<string, string>>;
}

/** Bundles the entry and the command and gathers the assets into `workDir` (WORK_DIR unless given). */
export async function prepareSeaInputs(workDir: string = WORK_DIR): Promise<SeaInputs> {
  mkdirSync(workDir, { recursive: true });
  const [files, { main, command }] = await Promise.all([packagedFiles(workDir), bundleForSea(workDir)]);
  return { main, assets: { ...files, [COMMAND_ASSET]: command } };
}

/** What one executable is made of. */
export interface ExecutableParts extends SeaInputs {
  /** The Node binary the blob goes into (copied, never changed): the version of the Node running here. */
  readonly node: string;
  /** The architecture recorded in the executable, which its first check compares with Node's. */
  readonly arch: string;
  /** V8's code for the command's bundle, made by {@link warmCodeCache}; none when not given. */
  readonly codeCache?: string;
  readonly out: string;
}

/**
 * Makes the blob and injects it into a copy of `node` at `out`. The Node running here makes the
 * blob, whatever the target's architecture: Node requires the same version, which `node` is
 * (registry-node.ts), and the blob holds no compiled code (the bundle's comes as an asset).
 */
export function makeExecutable(parts: ExecutableParts): void {
  mkdirSync(WORK_DIR, { recursive: true });
  const work = mkdtempSync(join(WORK_DIR, `${parts.arch}-`));
  try {
    const targetFile = join(work, 'target-arch');
    writeFileSync(targetFile, parts.arch);
    const noCodeCache = join(work, 'no-code-cache');
    writeFileSync(noCodeCache, '');
    const blob = join(work, 'sea.blob');
    const config = join(work, 'sea-config.json');
    const assets = {
      ...parts.assets,
      [SEA_TARGET_ASSET]: targetFile,
      [CODE_CACHE_ASSET]: parts.codeCache ?? noCodeCache,
    };
    writeFileSync(
      config,
      JSON.stringify({ main: parts.main, output: blob, disableExperimentalSEAWarning: true, assets }),
    );
    // Its one line of success is noise; a failure's message carries what it printed.
    execFileSync(process.execPath, ['--experimental-sea-config', config], { stdio: 'pipe' });
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
 * Runs `executable` once as a job-not-found run (`-yes no-such-job`, against a stand-in for Nomad
 * on loopback that lists no job) and has it write the code V8 compiled for the bundle to `out`.
 */
export async function warmCodeCache(executable: string, out: string): Promise<void> {
  const nomad = createServer((_req, res) =>
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('[]'),
  );
  await new Promise<void>((resolve) => nomad.listen(0, '127.0.0.1', resolve));
  // A cache left by an earlier build must not pass for this run's.
  rmSync(out, { force: true });
  try {
    const { port } = nomad.address() as AddressInfo;
    const env = {
      PATH: process.env['PATH'],
      NOMAD_ADDR: `http://127.0.0.1:${port}`,
      [CODE_CACHE_OUT_ENV]: out,
    };
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(executable, ['-yes', 'no-such-job'], { env, stdio: 'ignore' });
      child.on('error', reject);
      child.on('close', resolve);
    });
    // Exit 1 and "No job(s) with prefix or ID ..." is the run wanted.
    if (code !== 1 || !existsSync(out))
      throw new Error(`the code cache run of ${executable} exited with ${code}`);
  } finally {
    nomad.close();
  }
}

/**
 * Builds `nomad-restart-linux-<arch>` into `outDir` for each of `arches`; this machine's own
 * architecture twice, the second time with the code its first run compiled.
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
    makeExecutable({ ...inputs, node, arch, out });
    // Only an executable that runs here can compile code for its own V8.
    if (arch === process.arch) {
      const codeCache = join(WORK_DIR, `${COMMAND_ASSET}.${arch}.v8-cache`);
      await warmCodeCache(out, codeCache);
      makeExecutable({ ...inputs, node, arch, codeCache, out });
    }
    outs.push(out);
  }
  return outs;
}
