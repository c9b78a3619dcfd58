/**
 * How every handler is bundled for Lambda. One description, read twice: by `NodejsFunction` when
 * the stack is synthesized in this repository (handlers bundled from `lambdas/*.ts` on the spot),
 * and by `npm run build` (scripts/build.ts) for the package, whose handlers come prebundled so a
 * user's `cdk synth` needs neither esbuild nor Docker.
 */

/** The bundle's options, in `NodejsFunction`'s `bundling` vocabulary. */
export const HANDLER_BUNDLE = {
  target: 'node24',
  minify: true,
  // Minified but named: error classes take their `name` from the class (`new.target.name`), and
  // the state machine's Retry/Catch match on it (the `errorType` Lambda reports for a thrown error).
  keepNames: true,
  sourceMap: true,
  // Stack traces need only the mappings (NODE_OPTIONS=--enable-source-maps); the sources' text
  // would be five sixths of every package.
  sourcesContent: false,
  // Nothing left to the runtime: its own AWS SDK v3 is whatever version Lambda installed, not the
  // one package-lock.json pins and the tests ran; the bundles carry the tested one (and
  // NodejsFunction's default, for a Node.js 18+ runtime, is to leave `@aws-sdk/*` out).
  externalModules: [],
  // Bundled CommonJS dependencies call require(); give the ESM bundle one. Spelled in two pieces
  // so that the package build's rewrite of `import.meta.url` (bin/private/cli-bundle.js) skips it.
  banner: `import { createRequire } from 'module'; const require = createRequire(${'import.meta'}.url);`,
  mainFields: ['module', 'main'],
} as const;

/** The file an ESM bundle is written to (`NodejsFunction` names it so), and the handler in it. */
export const HANDLER_BUNDLE_FILE = 'index.mjs';
export const HANDLER_BUNDLE_HANDLER = 'index.handler';

/**
 * {@link HANDLER_BUNDLE} in esbuild's own vocabulary (what `NodejsFunction` turns it into), for
 * bundling a handler without `NodejsFunction`: the package build (scripts/build.ts) and its tests.
 */
export function handlerEsbuildOptions() {
  return {
    bundle: true,
    platform: 'node' as const,
    format: 'esm' as const,
    target: HANDLER_BUNDLE.target,
    minify: HANDLER_BUNDLE.minify,
    keepNames: HANDLER_BUNDLE.keepNames,
    sourcemap: HANDLER_BUNDLE.sourceMap,
    sourcesContent: HANDLER_BUNDLE.sourcesContent,
    external: [...HANDLER_BUNDLE.externalModules],
    banner: { js: HANDLER_BUNDLE.banner },
    mainFields: [...HANDLER_BUNDLE.mainFields],
  };
}
