/**
 * `npm run build` (run by `npm pack` through `prepack`): everything the package ships, in `dist/`,
 * so that neither the command nor a user's `cdk synth` needs tsx, esbuild, Docker or a synth of
 * ours at run time.
 *
 * - `dist/cli/nomad-restart.cjs`: the command, one file with its npm packages (bin/private/cli-bundle.js);
 * - `dist/local-definition.json`: the state machines the local engine runs (one-job and fleet), synthesized here once;
 * - `dist/lambdas/<handler>/index.mjs`: each handler bundled as `NodejsFunction` bundles it;
 * - `dist/constructs/index.js` and `dist/types/`: the constructs as CommonJS, with declarations.
 *
 * `dist/package.json` makes every `.js` and `.d.ts` under `dist/` CommonJS: a CommonJS module can be
 * both `require`d and `import`ed by a CDK app, and its declarations resolve without file extensions.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, build } from 'esbuild';
// @ts-expect-error: a plain JavaScript module of the shim, without type declarations
import { commandBundleOptions, packagedFileUrl } from '../bin/private/cli-bundle.js';
import { moduleUrls } from '../lib/bundling/module-urls.js';
import { HANDLER_BUNDLE_FILE, handlerEsbuildOptions } from '../lib/constructs/private/handler-bundle';
import { prebuiltHandlerDir } from '../lib/constructs/private/task-function';
import { SHIPPED_DEFINITION_FILE, synthesizeLocalStateMachine } from '../lib/engines/local/local-definition';
import { declarationsImportingZod, dropZodDeclarations } from './drop-zod-declarations';
import { expandInferredTypes } from './expand-inferred-types';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');

/** The packages a CDK app brings itself (peer dependencies): one copy of the CDK per app. */
const CDK_PACKAGES = ['aws-cdk-lib', 'aws-cdk-lib/*', 'constructs'];

/** The command, and `bundle-id` (a hash of it) that names its compiled-code cache (bin/private/run-bundle.cjs). */
async function buildCommand(): Promise<void> {
  const outDir = join('dist', 'cli');
  const outfile = join(ROOT, outDir, 'nomad-restart.cjs');
  await build(
    commandBundleOptions({
      projectDir: ROOT,
      outfile,
      moduleUrl: packagedFileUrl(ROOT, outDir),
    }) as BuildOptions,
  );
  const hash = createHash('sha256').update(readFileSync(outfile)).digest('hex').slice(0, 16);
  writeFileSync(join(ROOT, outDir, 'bundle-id'), `nomad-restart-${hash}\n`);
}

/**
 * Every `lambdas/<id>.ts` with the options `NodejsFunction` passes to esbuild (task-function.ts),
 * in one esbuild call: it bundles the entries in parallel and parses a module they share (the step
 * kit, the AWS SDK) once, where a call per handler did both again for each. No code splitting:
 * each bundle stands alone, as a Lambda function's code must.
 */
async function buildHandlers(): Promise<void> {
  const ids = readdirSync(join(ROOT, 'lambdas'))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => name.slice(0, -'.ts'.length));
  const outdir = join(DIST, 'lambdas');
  const bundleName = HANDLER_BUNDLE_FILE.slice(0, -extname(HANDLER_BUNDLE_FILE).length);
  await build({
    entryPoints: ids.map((id) => ({
      in: join(ROOT, 'lambdas', `${id}.ts`),
      out: relative(outdir, join(prebuiltHandlerDir(ROOT, id), bundleName)),
    })),
    absWorkingDir: ROOT,
    outdir,
    outExtension: { '.js': extname(HANDLER_BUNDLE_FILE) },
    ...handlerEsbuildOptions(),
    logLevel: 'warning',
  });
}

/** The constructs in one CommonJS file; their own npm packages inside it, the CDK left to the app. */
async function buildConstructs(): Promise<void> {
  const outDir = join('dist', 'constructs');
  await build({
    entryPoints: [join(ROOT, 'lib', 'constructs', 'index.ts')],
    absWorkingDir: ROOT,
    outfile: join(ROOT, outDir, 'index.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    external: CDK_PACKAGES,
    // Names kept for stack traces; no layout nor comments (the declarations carry the docs).
    keepNames: true,
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
    plugins: [moduleUrls(packagedFileUrl(ROOT, outDir))],
  });
}

/**
 * `tsc` in a child process, so that it runs beside the bundling and the synth. `--noCheck`
 * (https://www.typescriptlang.org/tsconfig/#noCheck) emits the same declarations without checking
 * every body they reach, a third of tsc's CPU: the types are checked by `npm run typecheck` in CI
 * over every file, and the shipped declarations by scripts/check-package.sh in a CDK app without
 * skipLibCheck.
 */
function runTsc(): Promise<void> {
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--noCheck'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`tsc exited with code ${code}`))));
  });
}

/** The constructs' declarations, in `dist/types/`. */
async function buildDeclarations(): Promise<void> {
  await runTsc();
  // Every declaration file that imports zod, found rather than listed (a new schema module would
  // otherwise fail `npm pack`): the types inferred from schemas (the inputs a schedule takes)
  // written out, then the schemas and what is typed with zod left out.
  const types = join(DIST, 'types');
  const withZod = declarationsImportingZod(types);
  expandInferredTypes(
    ROOT,
    types,
    withZod.map((file) => file.replace(/\.d\.ts$/, '.ts')),
  );
  dropZodDeclarations(types, withZod);
}

async function buildLocalDefinition(): Promise<void> {
  const stateMachine = await synthesizeLocalStateMachine(ROOT);
  writeFileSync(join(ROOT, SHIPPED_DEFINITION_FILE), `${JSON.stringify(stateMachine)}\n`);
}

/** Runs one phase of the build, and says how long it took once it ends. */
async function phase(name: string, run: () => Promise<void>): Promise<void> {
  const started = performance.now();
  await run();
  process.stdout.write(`  ${name}: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}

async function main(): Promise<void> {
  rmSync(DIST, { recursive: true, force: true });
  mkdirSync(DIST, { recursive: true });
  writeFileSync(join(DIST, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
  const started = performance.now();
  // The synth and tsc are child processes and esbuild has threads of its own: all run at once,
  // and the build takes about as long as its longest phase (docs/benchmarks.md, "Build and first run").
  await Promise.all([
    phase('local definition (synth)', buildLocalDefinition),
    phase('declarations (tsc)', buildDeclarations),
    phase('command (esbuild)', buildCommand),
    phase('handlers (esbuild)', buildHandlers),
    phase('constructs (esbuild)', buildConstructs),
  ]);
  process.stdout.write(`built dist/ in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}

await main();
