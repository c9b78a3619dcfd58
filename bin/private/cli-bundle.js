/**
 * The compiled form of `bin/nomad-restart.ts` the shim starts. Starting through tsx's loader
 * costs about 0.3 s on a 2-core machine (a loader thread, then one transform per file): more
 * than the whole budget for printing a validation error. So the command is bundled once by
 * esbuild into `.nomad-restart/cli/` and reused while none of its source files (nor
 * package-lock.json) changed. The npm packages are bundled too: resolving and compiling a few
 * hundred package files one by one cost more than half of a job-not-found run; only the build
 * tools and the CDK (used by `synth`, in its own process) stay outside.
 *
 * The bundle is one CommonJS file, not ES module chunks, because Node 20 can keep V8's compiled
 * code only for scripts (`run-bundle.cjs`): a module imported dynamically inside it is wrapped
 * in a function that runs on first import, so what a run does not use is never executed.
 * `npm run build` (scripts/build.ts) makes the package's bundle with the same options.
 */
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { moduleUrls, sourceFileUrl } from '../../lib/bundling/module-urls.js';

// Required, not imported: see run-bundle.cjs on `node:fs` in an ES module.
const { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = createRequire(
  import.meta.url,
)('node:fs');

const PROJECT_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CACHE_DIR = join(PROJECT_DIR, '.nomad-restart', 'cli');
const MANIFEST = join(CACHE_DIR, 'manifest.json');
const ENTRY = 'bin/nomad-restart.ts';
/** The files that make the bundle: its esbuild options (this file) and their plugin. */
const BUILT_BY = ['bin/private/cli-bundle.js', 'lib/bundling/module-urls.js'];
/** Older builds are removed after this long: a command started from one may still load its chunks. */
const STALE_BUILD_MS = 60 * 60 * 1000;

/** The cached bundle's path when every source file it was built from is unchanged, else undefined. */
export function freshBundle() {
  try {
    const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'));
    for (const [file, mtimeMs] of Object.entries(manifest.inputs)) {
      if (statSync(join(PROJECT_DIR, file)).mtimeMs !== mtimeMs) return undefined;
    }
    return join(CACHE_DIR, manifest.entry);
  } catch {
    return undefined;
  }
}

/**
 * In the package: the URL the source file would have in the installed package, computed at run
 * time from the bundle's own folder (`__dirname`, two levels below the package root), so the
 * files a module reads beside it (sim/scenarios/demo.json) are found wherever npm put the package.
 * @param projectDir the checkout the package is built from
 * @param outDir the bundle's folder, relative to the package root
 */
export const packagedFileUrl = (projectDir, outDir) => (path) => {
  const fromBundle = relative(join(projectDir, outDir), path).split(sep).join('/');
  return `require("node:url").pathToFileURL(require("node:path").join(__dirname, ${JSON.stringify(fromBundle)})).href`;
};

/**
 * aws-local-stepfunctions imports an AWS Lambda client (and a Cognito credential provider) for
 * Tasks that have no local handler. The local engine gives every Task its handler, so the command
 * never invokes a Lambda: it gets a stand-in that says so, and never loads those SDK clients.
 * Its definition validator (ajv and friends) only checks a definition a caller hands the engine,
 * so it is required from node_modules when first called instead of on every start.
 */
const NO_LAMBDA_SDK = `
const unavailable = () => { throw new Error('nomad-restart: a Task without a local handler cannot call AWS Lambda from the local engine'); };
export class LambdaClient { constructor() { unavailable(); } }
export class InvokeCommand { constructor() { unavailable(); } }
export const fromCognitoIdentityPool = unavailable;
`;
const LAZY_ASL_VALIDATOR = `
export default (...args) => require('asl-validator')(...args);
`;
const localEngineOnly = {
  name: 'local-engine-only',
  setup(build) {
    build.onResolve({ filter: /^@aws-sdk\/(client-lambda|credential-providers)$/ }, ({ importer }) =>
      importer.includes('aws-local-stepfunctions') ? { path: 'no-lambda-sdk', namespace: 'stub' } : undefined,
    );
    build.onResolve({ filter: /^asl-validator$/ }, ({ importer, namespace }) => {
      // The stand-in's own require stays a require of the package, from node_modules.
      if (namespace === 'stub') return { path: 'asl-validator', external: true };
      return importer.includes('aws-local-stepfunctions')
        ? { path: 'lazy-asl-validator', namespace: 'stub' }
        : undefined;
    });
    build.onLoad({ filter: /.*/, namespace: 'stub' }, ({ path }) => ({
      contents: path === 'lazy-asl-validator' ? LAZY_ASL_VALIDATOR : NO_LAMBDA_SDK,
      loader: 'js',
    }));
  },
};

/**
 * `node:crypto` is required at its first call, not when an importing module starts: it cost about
 * 7 ms of CPU on every run, and a job that is not found (or a flag error) never calls it
 * (docs/benchmarks.md, "The last milliseconds of a job not found"). Modules of that path import it
 * for ids and digests of later steps (the lock's UUID, an approval's id), the handlers' Powertools
 * logger for its debug sampling (`randomInt`); what a local run needs before its first request
 * does without it (lib/digest/sha1.ts, lib/engines/local/private/local-uuid.ts).
 *
 * Only the project's own import statements and the logger's are given the stand-in: esbuild
 * checks their named imports against its exports (a name it lacks fails the build), while a
 * package's `require` or namespace import could read any property and get undefined. Each export
 * is one of the built-in's functions, called on the module as the original is.
 */
const lazyCryptoSource = () => {
  const crypto = createRequire(import.meta.url)('node:crypto');
  // The property's descriptor, not its value: reading a deprecated getter (`crypto.fips`) warns.
  const functions = Object.keys(crypto).filter(
    (name) =>
      /^[a-z]/.test(name) && typeof Object.getOwnPropertyDescriptor(crypto, name)?.value === 'function',
  );
  return functions
    .map((name) => `export const ${name} = (...a) => require('node:crypto').${name}(...a);`)
    .join('\n');
};
const lazyCrypto = {
  name: 'lazy-crypto',
  setup(build) {
    build.onResolve({ filter: /^node:crypto$/ }, ({ importer, kind }) =>
      kind === 'import-statement' &&
      (!importer.includes('node_modules/') ||
        importer.includes('node_modules/@aws-lambda-powertools/logger/'))
        ? { path: 'node:crypto', namespace: 'lazy-crypto' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-crypto' }, () => ({
      contents: lazyCryptoSource(),
      loader: 'js',
    }));
  },
};

/**
 * esbuild's options for the command's bundle: one CommonJS file with the npm packages in it.
 * @param moduleUrl what `import.meta.url` becomes (`sourceFileUrl`, `packagedFileUrl(...)`)
 */
export function commandBundleOptions({ projectDir, outfile, moduleUrl = sourceFileUrl }) {
  return {
    entryPoints: [join(projectDir, ENTRY)],
    absWorkingDir: projectDir,
    outfile,
    bundle: true,
    format: 'cjs',
    // Every import() becomes a require: a script run from V8's kept code loses Node's dynamic
    // import hook (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING), see run-bundle.cjs.
    supported: { 'dynamic-import': false },
    platform: 'node',
    target: 'node22',
    packages: 'bundle',
    // No comments nor layout (a third less to read and parse at every start), local names
    // shortened (a third less again, and a smaller kept code to restore: docs/benchmarks.md,
    // "Start-up"), the names of functions and classes kept (an error's `name` is its class's, and
    // Step Functions' Retry and Catch match on it: lib/errors/named-error.ts), and nothing but
    // ASCII, which run-bundle.cjs reads as latin1.
    minifyWhitespace: true,
    minifySyntax: true,
    minifyIdentifiers: true,
    keepNames: true,
    charset: 'ascii',
    external: ['esbuild', 'tsx', 'tsx/*', 'aws-cdk-lib', 'aws-cdk-lib/*', 'constructs'],
    metafile: true,
    logLevel: 'silent',
    plugins: [moduleUrls(moduleUrl), localEngineOnly, lazyCrypto],
  };
}

/** Bundles the command into a new build folder and points the manifest at it (atomically). */
export async function buildBundle() {
  const { build } = await import('esbuild');
  const name = `build-${Date.now()}-${process.pid}`;
  const result = await build(
    commandBundleOptions({ projectDir: PROJECT_DIR, outfile: join(CACHE_DIR, name, 'nomad-restart.cjs') }),
  );
  // The project's own sources, the lock file for the bundled packages (a few hundred
  // files whose stat on every start would cost more than it saves), and the files that say how
  // the bundle is built: a changed option rebuilds it too.
  const inputs = {};
  for (const file of new Set([...Object.keys(result.metafile.inputs), 'package-lock.json', ...BUILT_BY])) {
    if (file.includes('node_modules/') || file.includes(':')) continue;
    inputs[file] = statSync(join(PROJECT_DIR, file)).mtimeMs;
  }
  const [entry] = Object.entries(result.metafile.outputs).find(([, out]) => out.entryPoint === ENTRY) ?? [];
  if (entry === undefined) throw new Error(`esbuild produced no output for ${ENTRY}`);
  const relativeEntry = entry.slice('.nomad-restart/cli/'.length);
  const scratch = `${MANIFEST}.${process.pid}`;
  writeFileSync(scratch, JSON.stringify({ entry: relativeEntry, inputs }));
  renameSync(scratch, MANIFEST);
  removeStaleBuilds(name);
  return join(CACHE_DIR, relativeEntry);
}

function removeStaleBuilds(current) {
  mkdirSync(CACHE_DIR, { recursive: true });
  for (const entry of readdirSync(CACHE_DIR, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === current) continue;
    const path = join(CACHE_DIR, entry.name);
    if (Date.now() - statSync(path).mtimeMs > STALE_BUILD_MS) rmSync(path, { recursive: true, force: true });
  }
}
