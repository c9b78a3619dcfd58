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
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, build } from 'esbuild';
// @ts-expect-error: a plain JavaScript module of the shim, without type declarations
import { commandBundleOptions, moduleUrls, packagedFileUrl } from '../bin/private/cli-bundle.js';
import { HANDLER_BUNDLE_FILE, handlerEsbuildOptions } from '../lib/constructs/private/handler-bundle';
import { prebuiltHandlerDir } from '../lib/constructs/private/task-function';
import { SHIPPED_DEFINITION_FILE, synthesizeLocalStateMachine } from '../lib/engines/local/local-definition';
import { declarationsImportingZod, dropZodDeclarations } from './drop-zod-declarations';
import { expandInferredTypes } from './expand-inferred-types';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');

/** The packages a CDK app brings itself (peer dependencies): one copy of the CDK per app. */
const CDK_PACKAGES = ['aws-cdk-lib', 'aws-cdk-lib/*', 'constructs'];

/** The command, and `bundle-id` (a hash of it) that names its compiled-code cache (bin/private/run-bundle.js). */
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

/** Every `lambdas/<id>.ts` with the options `NodejsFunction` passes to esbuild (task-function.ts). */
async function buildHandlers(): Promise<void> {
  const ids = readdirSync(join(ROOT, 'lambdas'))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => name.slice(0, -'.ts'.length));
  for (const id of ids) {
    await build({
      entryPoints: [join(ROOT, 'lambdas', `${id}.ts`)],
      absWorkingDir: ROOT,
      outfile: join(prebuiltHandlerDir(ROOT, id), HANDLER_BUNDLE_FILE),
      ...handlerEsbuildOptions(),
      logLevel: 'warning',
    });
  }
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
  execFileSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  );
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

async function main(): Promise<void> {
  rmSync(DIST, { recursive: true, force: true });
  mkdirSync(DIST, { recursive: true });
  writeFileSync(join(DIST, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
  const started = performance.now();
  // The synth is a child process: it runs beside the bundling.
  await Promise.all([buildLocalDefinition(), buildCommand().then(buildHandlers).then(buildConstructs)]);
  process.stdout.write(`built dist/ in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}

await main();
