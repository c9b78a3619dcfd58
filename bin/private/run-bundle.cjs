/**
 * Runs the command's bundle (a CommonJS file, see cli-bundle.js) with V8's compiled code kept
 * beside it. Compiling the bundle's source was the largest share of a job-not-found run left
 * after loading only what a run needs; Node 20 has no `module.enableCompileCache` (Node 22.1+)
 * and keeps no compiled code for ES modules, but a `vm.Script` can be given the code V8 made for
 * it last time (`cachedData`), which V8 checks against the source's length, its own version and
 * its flags.
 *
 * The cache is made when the process exits, after the run compiled what it used, by the first
 * few runs of each bundle (and again whenever V8 refuses it); a later one replaces it only when
 * it compiled more (a flag error compiles far less than a restart). Making it costs a few
 * milliseconds at exit, so the runs after those leave it alone.
 */
// CommonJS, as the rest of the installed command's start (start.cjs): each ES module costs more to
// load than a CommonJS file, and importing `node:fs` into one makes Node build its ES module facade,
// which reads every export of `fs`, the lazy ones too: `fs.ReadStream` loads all of `node:stream`,
// about 6 ms of CPU on every start (a start that prints a flag error uses no stream).
const { createRequire } = require('node:module');
const { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { Script } = require('node:vm');

/** The function Node wraps every CommonJS module in. */
const wrap = (source) => `(function (exports, require, module, __filename, __dirname) {${source}\n})`;

/** How many runs of a bundle make the cache (the first, then a chance for runs that go further). */
const CACHE_MAKERS = 3;

function readCache(path) {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * 12 hex digits naming a flag set: two 32-bit FNV-1a hashes of `text`'s UTF-16 code units. Not
 * `node:crypto`: loading it cost about 15 ms of CPU on every start (a third of Node's own start),
 * and a cache key needs no cryptography: a collision only makes V8 refuse the code, as it checks
 * its flags itself, and the next run replaces it.
 */
function flagsKey(text) {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    a = Math.imul(a ^ text.charCodeAt(i), 0x01000193);
    b = Math.imul(b ^ text.charCodeAt(i), 0x811c9dc5);
  }
  return ((a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0')).slice(0, 12);
}

/**
 * `<bundle>.<key>.v8-cache` holds the code, `<...>.v8-cache.n` how many runs made it. One per Node
 * version and flag set: V8 refuses code made under other flags (`--max-old-space-size`, say), and
 * runs started with different flags would otherwise keep replacing each other's. Kept in `cacheDir`
 * (as `<bundleId>.<key>.v8-cache`) when given, else beside the bundle.
 */
function cachePathFor(path, cacheDir, bundleId) {
  const flags = [process.version, ...process.execArgv, process.env['NODE_OPTIONS'] ?? ''].join('\0');
  const key = flagsKey(flags);
  return cacheDir === undefined ? `${path}.${key}.v8-cache` : join(cacheDir, `${bundleId}.${key}.v8-cache`);
}

function cacheMakers(path) {
  try {
    return Number(readFileSync(`${path}.n`, 'utf8')) || 0;
  } catch {
    return 0;
  }
}

/**
 * Makes `dir` and its missing parents. Not `mkdirSync(dir, { recursive: true })`: Node's own walk
 * never ends on a path under `/proc`, where `mkdir` answers ENOENT however often the parent exists
 * (a cache folder there kept the command spinning until killed). Here each level is tried once.
 */
function makeDir(dir) {
  try {
    mkdirSync(dir);
    return;
  } catch (err) {
    // EEXIST: a folder, or a file whose ENOTDIR the write then reports.
    if (err.code === 'EEXIST') return;
    if (err.code !== 'ENOENT' || dirname(dir) === dir) throw err;
  }
  makeDir(dirname(dir));
  try {
    mkdirSync(dir);
  } catch (err) {
    // Another run may have made it in between.
    if (err.code !== 'EEXIST') throw err;
  }
}

/**
 * Replaces a file in one step, so concurrent runs never read half of one.
 * @returns the error that kept it from being written (a read-only or misplaced cache folder, a
 *   full disk), else undefined: the next run then compiles again, nothing worse
 */
function replaceFile(path, data) {
  const scratch = `${path}.${process.pid}`;
  try {
    makeDir(dirname(path));
    writeFileSync(scratch, data);
    renameSync(scratch, path);
    return undefined;
  } catch (err) {
    try {
      rmSync(scratch, { force: true });
    } catch {
      // `force` ignores only a missing file: under a file or a symlink loop, there is none to remove.
    }
    return err;
  }
}

/** The one line a run prints when its compiled code cannot be kept: the run itself goes on. */
function warnNotKept(err, cacheDir) {
  const hint = cacheDir === undefined ? '' : ' Point XDG_CACHE_HOME at a writable folder to keep it.';
  process.stderr.write(
    `nomad-restart: warning: compiled code not kept (${err.message}); the command works, each start is slower.${hint}\n`,
  );
}

/**
 * Loads and runs the bundle at `path` as Node runs a CommonJS main module. V8 checks a cache
 * against the source's length, not its text, so a cache must never outlive its bundle: in the
 * checkout it sits beside the bundle in the build's own folder (a bundle is never rewritten in
 * place); an installed package names it by the bundle's content (`bundleId`, written by its build)
 * in the user's cache folder, since the package's own folder is no place to write.
 * @param options.cacheDir where to keep the compiled code; beside the bundle when not given
 * @param options.bundleId what names the bundle's cache in `cacheDir` (a hash of its content)
 * @returns what became of the kept code: `none` (there was none yet), `used`, or `refused` by V8
 */
function runBundle(path, { cacheDir, bundleId } = {}) {
  const cachePath = cachePathFor(path, cacheDir, bundleId);
  const cachedData = readCache(cachePath);
  // The bundle is ASCII only (cli-bundle.js), so latin1 reads it exactly, and ~4x faster than a
  // UTF-8 decode of its 2 MB. No `importModuleDynamically`: a script compiled from kept code
  // loses it anyway (Node 20), so the bundle is built without any import().
  const script = new Script(wrap(readFileSync(path, 'latin1')), { filename: path, cachedData });
  const usable = cachedData !== undefined && !script.cachedDataRejected;
  const makers = usable ? cacheMakers(cachePath) : 0;
  if (makers < CACHE_MAKERS) {
    process.once('exit', () => {
      const code = script.createCachedData();
      // A run that compiled less than the one before (a bad flag after a restart) keeps the cache.
      const failed =
        (!usable || code.length > cachedData.length ? replaceFile(cachePath, code) : undefined) ??
        replaceFile(`${cachePath}.n`, String(makers + 1));
      if (failed !== undefined) warnNotKept(failed, cacheDir);
    });
  }
  const bundle = { exports: {} };
  const run = script.runInThisContext();
  run.call(bundle.exports, bundle.exports, createRequire(path), bundle, path, dirname(path));
  return cachedData === undefined ? 'none' : usable ? 'used' : 'refused';
}

module.exports = { runBundle };
