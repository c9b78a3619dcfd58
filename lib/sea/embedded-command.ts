/**
 * The single executable runs the command's bundle from an asset, compiled with V8's code for it
 * from another asset. Node's own `useCodeCache` keeps only what V8 compiles before the script
 * runs (its top level), so every function a run calls was compiled again at each start: measured,
 * a job-not-found run cost more CPU than the npm package's, whose kept code is made after a run
 * (bin/private/run-bundle.cjs). Here the build runs the executable once (a job-not-found run,
 * scripts/sea-executable.ts) with {@link CODE_CACHE_OUT_ENV} set, and puts the code V8 had
 * compiled by its end into the executable. V8 checks that code against the source, its version and
 * its flags, and compiles afresh when it does not fit (the arm64 executable, built on x64, has none).
 */
import { writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { getAsset } from 'node:sea';
import { Script } from 'node:vm';

/** The asset holding the command's one-file CommonJS bundle. */
export const COMMAND_ASSET = 'nomad-restart.cjs';
/** The asset holding V8's code for it (empty when the build could not make it). */
export const CODE_CACHE_ASSET = 'nomad-restart.cjs.v8-cache';
/** Set by the build only: where a run writes, at its exit, the code V8 compiled for the bundle. */
export const CODE_CACHE_OUT_ENV = 'NOMAD_RESTART_SEA_CODE_CACHE_OUT';

/** The function Node wraps every CommonJS module in. */
const wrap = (source: string) => `(function (exports, require, module, __filename, __dirname) {${source}\n})`;

/**
 * Runs the embedded command as Node runs a CommonJS main module.
 * @param require the executable's own `require` (built-in modules only: the bundle needs no other)
 */
export function runEmbeddedCommand(require: NodeJS.Require): void {
  const filename = process.execPath;
  const code = Buffer.from(getAsset(CODE_CACHE_ASSET));
  const script = new Script(wrap(getAsset(COMMAND_ASSET, 'utf8')), {
    filename,
    ...(code.length > 0 ? { cachedData: code } : {}),
  });
  const out = process.env[CODE_CACHE_OUT_ENV];
  if (out !== undefined) process.once('exit', () => writeFileSync(out, script.createCachedData()));
  const module = { exports: {} };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, require, module, filename, dirname(filename));
}
