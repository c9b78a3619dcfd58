/**
 * The esbuild plugin every bundle of the project's TypeScript uses (the command's, the package's
 * constructs, the state machine's first-run child, the local engine's CDK app): a CommonJS bundle
 * has no `import.meta`, so each source's `import.meta.url` is written in as what `urlOf(path)`
 * gives, and the paths computed from it (the project root, the demo scenario, the handlers'
 * sources) stay what they are when the file runs through tsx.
 *
 * Plain JavaScript, because the launcher (bin/private/cli-bundle.js) imports it before any bundle
 * exists, on any Node the package supports; with no `import.meta` of its own, because the local
 * engine's synth (lib/engines/local/local-synth.ts) brings it into the command's bundle, which
 * must hold none (test/bin/cli-bundle.test.ts). The pattern is a regular expression for the same
 * reason: its source text never spells the expression it finds.
 */
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';

/** Every `import.meta.url` in a source. */
const MODULE_URL = /import\.meta\.url/g;

/**
 * @param urlOf the JavaScript expression that stands for the source file's URL, given its path
 *   (`sourceFileUrl`, or the package's `packagedFileUrl` in bin/private/cli-bundle.js)
 */
export const moduleUrls = (urlOf) => ({
  name: 'module-urls',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
      const url = urlOf(path);
      // A function, so that a `$` in a path is never read as a replacement pattern.
      const source = (await readFile(path, 'utf8')).replace(MODULE_URL, () => url);
      return { contents: source, loader: 'ts' };
    });
  },
});

/** The source file's own URL, fixed at build time: for a bundle run where its sources are. */
export const sourceFileUrl = (path) => JSON.stringify(pathToFileURL(path).href);
