/**
 * Runs the project's CDK app (`bin/app.ts`) for the local engine, which needs the state machines'
 * definitions and nothing else. Two things `cdk synth` does are left out, because they were most
 * of a local synth's time and neither changes a definition (measured in docs/benchmarks.md,
 * "Build and first run"):
 *
 * - the CDK's own CloudFormation validation of the template (a WebAssembly rule engine, about
 *   two thirds of the synth's CPU): `CDK_VALIDATION=false`, which aws-cdk-lib reads in
 *   `defaultValidationEnabled` (node_modules/aws-cdk-lib/core/lib/private/synthesis-validation.js).
 *   `cdk synth`, `npm run synth` and the stack's tests still validate it;
 * - tsx's per-file compile: the app is bundled by esbuild into one CommonJS file (its npm packages
 *   left outside, loaded from node_modules as they are under tsx) and run by plain `node`.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { moduleUrls, sourceFileUrl } from '../../bundling/module-urls.js';
import { SynthesisFailedError } from './errors';

/** `nomadAddress` for the local synth: a reserved name (RFC 6761 `.invalid`) nobody can reach. */
const LOCAL_SYNTH_NOMAD_ADDRESS = 'https://nomad.local-engine.invalid:4646';

/**
 * Where the app's bundle is written: inside the project, so that its `require`s of npm packages
 * resolve to the project's node_modules as the sources' imports do.
 */
const APP_BUNDLE_PARENT = '.nomad-restart';

/**
 * Bundles `bin/app.ts` into `dir/app.cjs`. Each source keeps its own `import.meta.url` (the app
 * finds the handlers' sources from it: lib/constructs/private/task-function.ts), written in as
 * the file's URL by the plugin every bundle of the project uses (lib/bundling/module-urls.js).
 */
async function bundleApp(projectDir: string, dir: string): Promise<string> {
  const { build } = await import('esbuild');
  const outfile = join(dir, 'app.cjs');
  await build({
    entryPoints: [join(projectDir, 'bin', 'app.ts')],
    absWorkingDir: projectDir,
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    packages: 'external',
    sourcemap: true,
    logLevel: 'silent',
    plugins: [moduleUrls(sourceFileUrl)],
  });
  return outfile;
}

function runNode(projectDir: string, script: string, outDir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // Source maps on, so that an app that throws names the TypeScript line in the error.
    const child = spawn(process.execPath, ['--enable-source-maps', script], {
      cwd: projectDir,
      env: {
        ...process.env,
        CDK_OUTDIR: outDir,
        CDK_VALIDATION: 'false',
        // The CDK CLI refuses `aws:` context keys from users, but the app reads this variable.
        // The address is never read in a local run (the command hands the handlers its own
        // configuration); the app only needs one that is not loopback to synthesize. No stack
        // is bundled: the local engine binds handlers by state name, so no Lambda asset is needed.
        CDK_CONTEXT_JSON: JSON.stringify({
          'aws:cdk:bundling-stacks': [],
          nomadAddress: LOCAL_SYNTH_NOMAD_ADDRESS,
        }),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4000);
    });
    child.on('error', (error) =>
      reject(new SynthesisFailedError('cannot run the CDK app', { cause: error })),
    );
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new SynthesisFailedError(`CDK app exited with code ${code}: ${stderr.trim()}`)),
    );
  });
}

/**
 * Synthesizes the project's stack into `outDir` as the local engine reads it: bundling off,
 * validation off, the app bundled rather than compiled file by file.
 * @throws SynthesisFailedError when the app cannot be bundled or exits with an error
 */
export async function runLocalCdkApp(projectDir: string, outDir: string): Promise<void> {
  const parent = join(projectDir, APP_BUNDLE_PARENT);
  await mkdir(parent, { recursive: true });
  // Its own folder per synth: concurrent first runs never share a half-written bundle.
  const dir = await mkdtemp(join(parent, 'app-'));
  try {
    const script = await bundleApp(projectDir, dir).catch((error: unknown) => {
      // esbuild's message names the file, line and what it could not compile or resolve.
      const why = error instanceof Error ? `: ${error.message}` : '';
      throw new SynthesisFailedError(`cannot bundle the CDK app (bin/app.ts)${why}`, { cause: error });
    });
    await runNode(projectDir, script, outDir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
