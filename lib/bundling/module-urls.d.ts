/** Declarations of module-urls.js, for the TypeScript that imports it (the local engine's synth, the build). */
import type { Plugin } from 'esbuild';

/** The esbuild plugin that writes `urlOf(path)` in for each source's `import.meta.url`. */
export declare const moduleUrls: (urlOf: (path: string) => string) => Plugin;
/** The source file's own URL, as a JavaScript string literal. */
export declare const sourceFileUrl: (path: string) => string;
