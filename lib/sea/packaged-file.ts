/**
 * Files the command reads beside its modules (the local engine's state machines, the simulator's
 * scenarios). In the checkout and the npm package they are files on disk; in the single
 * executable (scripts/build-sea.ts) there is no package folder, so its build points
 * `import.meta.url` at {@link SEA_ROOT}, a folder that exists nowhere, and carries the files as
 * assets of the executable (Node's `node:sea`), keyed by their path below it.
 */
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { getAsset, isSea } from 'node:sea';

/**
 * The package root the single executable's modules see. Never a real folder: a path below it is
 * read from the executable's assets, so a file beside the executable can never stand in for one.
 */
export const SEA_ROOT = '/nomad-restart-single-executable';

/** The asset that records the architecture the executable was built for (`x64`, `arm64`). */
export const SEA_TARGET_ASSET = 'target-arch';

/**
 * The asset key of a packaged file's path (`dist/local-definition.json`), or undefined for a path
 * outside {@link SEA_ROOT} (a scenario file a user names, say).
 */
export function seaAssetKey(path: string): string | undefined {
  const relative = posix.relative(SEA_ROOT, posix.normalize(path));
  return relative === '' || relative.startsWith('..') || posix.isAbsolute(relative) ? undefined : relative;
}

/**
 * Reads a file the command ships, as UTF-8: from the executable's assets when it runs as the
 * single executable and `path` is below {@link SEA_ROOT}, else from disk. Throws as `readFileSync`
 * does when there is no such file (`getAsset` names the missing key).
 */
export function readPackagedFile(path: string): string {
  const key = isSea() ? seaAssetKey(path) : undefined;
  return key === undefined ? readFileSync(path, 'utf8') : getAsset(key, 'utf8');
}
