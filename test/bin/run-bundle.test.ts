/**
 * Scenario: the shim's bundle runner (`bin/private/run-bundle.cjs`) in child processes, as the
 * command starts: a CommonJS bundle runs exactly as Node would run it, V8's compiled code is
 * kept beside it and used by the next run, a cache V8 refuses is replaced, a run that compiled
 * less never replaces a fuller cache, and only the first few runs of a bundle spend time on it.
 * Installed, the cache goes to the user's cache folder, named by the bundle's id, never beside it;
 * a cache folder that cannot be written (a file, under /proc, a symlink loop, read-only) costs one
 * warning line and the run goes on as usual.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const RUNNER = pathToFileURL(
  join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'private', 'run-bundle.cjs'),
).href;

/** A bundle that uses what Node gives a CommonJS module, and compiles much more with `big`. */
const BUNDLE = `
const { join } = require('node:path');
module.exports = { ok: true };
function big() {
  ${Array.from({ length: 400 }, (_, i) => `const v${i} = [${i}, '${i}'].map((x) => String(x) + ${i});`).join('\n  ')}
  return v399.length;
}
if (process.argv.includes('big')) big();
const self = this;
setImmediate(() => {
  process.stdout.write(JSON.stringify({
    file: __filename, dir: __dirname, joined: join('a', 'b'), exportsOk: module.exports.ok,
    thisIsExports: self === exports, eol: require('node:os').EOL,
  }) + '\\n');
  process.exitCode = 3;
});
`;

let dir: string;
let bundle: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'run-bundle-'));
  bundle = join(dir, 'nomad-restart.cjs');
  writeFileSync(bundle, BUNDLE);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the bundle through the runner; `cache` is what the runner said of the kept code. */
function run(...args: string[]): { cache: string; out: Record<string, unknown>; code: number | null } {
  return runWith({}, ...args);
}

function runWith(
  env: NodeJS.ProcessEnv,
  ...args: string[]
): { cache: string; out: Record<string, unknown>; code: number | null } {
  // RUN_BUNDLE_CACHE_DIR stands for an installed package: the cache in that folder, named `bundle-1`.
  const script = `import { runBundle } from ${JSON.stringify(RUNNER)};
    const cacheDir = process.env.RUN_BUNDLE_CACHE_DIR;
    process.stderr.write(runBundle(process.argv[1], cacheDir ? { cacheDir, bundleId: 'bundle-1' } : undefined));`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script, bundle, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '', ...env },
  });
  if (child.stdout === '') throw new Error(child.stderr);
  return {
    cache: child.stderr,
    out: JSON.parse(child.stdout) as Record<string, unknown>,
    code: child.status,
  };
}

/** The one cache file beside the bundle (runs here share Node's version and flags). */
const cacheFile = () => {
  const [file, ...others] = readdirSync(dir).filter((name) => name.endsWith('.v8-cache'));
  if (file === undefined || others.length > 0)
    throw new Error(`expected one cache file, found ${file} ${others}`);
  return join(dir, file);
};
const makers = () => readFileSync(`${cacheFile()}.n`, 'utf8');

describe('runBundle', () => {
  it('runs a CommonJS bundle as Node runs its main module', () => {
    // Act
    const { out, code } = run();

    // Assert
    expect(out).toEqual({
      file: bundle,
      dir,
      joined: join('a', 'b'),
      exportsOk: true,
      thisIsExports: true,
      eol: '\n',
    });
    expect(code).toBe(3);
  });

  it('keeps the compiled code after the first run and uses it on the next', () => {
    // Act
    const first = run();
    const kept = statSync(cacheFile()).size;
    const second = run();

    // Assert
    expect(first.cache).toBe('none');
    expect(kept).toBeGreaterThan(0);
    expect(second.cache).toBe('used');
    expect(second.out).toEqual(first.out);
    expect(makers()).toBe('2');
  });

  it('replaces a cache V8 refuses', () => {
    // Arrange
    run();
    writeFileSync(cacheFile(), Buffer.from('not V8 code at all'));

    // Act
    const refused = run();
    const next = run();

    // Assert
    expect(refused.cache).toBe('refused');
    expect(next.cache).toBe('used');
  });

  it('keeps one cache per flag set, so runs with other V8 flags do not replace each other', () => {
    // Arrange
    const bigHeap = { NODE_OPTIONS: '--max-old-space-size=512' };
    run();
    runWith(bigHeap);

    // Act
    const plain = run();
    const withFlag = runWith(bigHeap);

    // Assert
    expect({ plain: plain.cache, withFlag: withFlag.cache }).toEqual({ plain: 'used', withFlag: 'used' });
    expect(readdirSync(dir).filter((name) => name.endsWith('.v8-cache'))).toHaveLength(2);
  });

  it('keeps a fuller cache when a later run compiled less', () => {
    // Arrange
    run('big');
    const full = readFileSync(cacheFile());

    // Act
    run();

    // Assert
    expect(readFileSync(cacheFile()).equals(full)).toBe(true);
    expect(makers()).toBe('2');
  });

  it('lets a later run that went further replace the cache', () => {
    // Arrange
    run();
    const small = statSync(cacheFile()).size;

    // Act
    run('big');

    // Assert
    expect(statSync(cacheFile()).size).toBeGreaterThan(small);
  });

  it('stops making the cache after the first three runs', () => {
    // Arrange
    run();
    run();
    run();
    const made = readFileSync(cacheFile());

    // Act
    const later = run('big');

    // Assert
    expect(later.cache).toBe('used');
    expect(makers()).toBe('3');
    expect(readFileSync(cacheFile()).equals(made)).toBe(true);
  });

  it('loads neither node:crypto (to name its cache) nor node:stream (through an ES facade of node:fs)', () => {
    // Arrange
    const script = `import { runBundle } from ${JSON.stringify(RUNNER)};
      runBundle(process.argv[1]);
      // Taken as the bundle's top level has run: its output, later, loads streams of its own.
      const loaded = JSON.stringify(process.moduleLoadList);
      process.on('exit', () => process.stderr.write(loaded));`;

    // Act
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script, bundle], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    });

    // Assert
    const loaded = JSON.parse(child.stderr) as string[];
    expect(loaded).toContain('NativeModule vm');
    expect(loaded).not.toContain('NativeModule crypto');
    expect(loaded).not.toContain('NativeModule stream');
  });

  it('keeps the compiled code in the cache folder it is given, named by the bundle id, and nothing beside the bundle', () => {
    // Arrange
    const cacheDir = join(dir, 'user-cache', 'nomad-restart');
    const installed = { RUN_BUNDLE_CACHE_DIR: cacheDir };

    // Act
    const first = runWith(installed);
    const second = runWith(installed);

    // Assert
    expect({ first: first.cache, second: second.cache }).toEqual({ first: 'none', second: 'used' });
    expect(readdirSync(cacheDir).filter((name) => name.endsWith('.v8-cache'))).toEqual([
      expect.stringMatching(/^bundle-1\.[0-9a-f]{12}\.v8-cache$/),
    ]);
    expect(readdirSync(dir).sort()).toEqual(['nomad-restart.cjs', 'user-cache']);
  });
});

/** The user `nobody`: root writes through any folder's mode, so a read-only folder needs another user. */
const NOBODY = 65534;

/** XDG_CACHE_HOME-like folders no run can write to, made under `dir`; `asNobody` when root ignores the mode. */
const UNWRITABLE: { name: string; make: () => string; asNobody?: boolean }[] = [
  {
    name: 'a file',
    make: () => {
      writeFileSync(join(dir, 'a-file'), '');
      return join(dir, 'a-file', 'nomad-restart');
    },
  },
  { name: 'a folder under /proc', make: () => '/proc/nomad-restart-cache/nomad-restart' },
  {
    name: 'a symlink loop',
    make: () => {
      symlinkSync(join(dir, 'loop-b'), join(dir, 'loop-a'));
      symlinkSync(join(dir, 'loop-a'), join(dir, 'loop-b'));
      return join(dir, 'loop-a', 'nomad-restart');
    },
  },
  {
    name: 'a read-only folder',
    make: () => {
      mkdirSync(join(dir, 'read-only'));
      chmodSync(join(dir, 'read-only'), 0o555);
      return join(dir, 'read-only', 'nomad-restart');
    },
    asNobody: process.getuid?.() === 0,
  },
];

describe('runBundle with a cache folder it cannot write', () => {
  it.each(UNWRITABLE)('runs normally with one warning line when it is $name', ({ make, asNobody }) => {
    // Arrange
    const cacheDir = make();
    // The child (as nobody, when it must be) reads the bundle from a folder it may enter.
    chmodSync(dir, 0o755);
    const script = `import { runBundle } from ${JSON.stringify(RUNNER)};
      runBundle(process.argv[1], { cacheDir: ${JSON.stringify(cacheDir)}, bundleId: 'bundle-1' });`;

    // Act
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script, bundle], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
      // A mkdir loop would otherwise hang the suite: a killed child fails the status below.
      timeout: 20_000,
      ...(asNobody ? { uid: NOBODY, gid: NOBODY } : {}),
    });

    // Assert
    expect({ status: child.status, signal: child.signal }).toEqual({ status: 3, signal: null });
    expect(JSON.parse(child.stdout)).toMatchObject({ exportsOk: true, file: bundle });
    expect(child.stderr).toMatch(
      /^nomad-restart: warning: compiled code not kept \(E[A-Z]+: [^\n]*\); the command works, each start is slower\. Point XDG_CACHE_HOME at a writable folder to keep it\.\n$/,
    );
  });
});
